package methods

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastrobots/robots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	// licensedFiles holds the licensed corpus's robots.txt bodies.
	licensedFiles = "../../../../testdata/corpus/files"
	// sharedArchive is the full corpus, outside the repository.
	sharedArchive = "../../../../../shared/corpus/robots-corpus.tar.gz"
	// sharedFiles is how many robots.txt bodies its files/ holds.
	sharedFiles = 26816
)

// classOrder ranks the classes by how much they disallow, for the
// direction of a difference; Uncounted and "undecided" have no rank.
var classOrder = map[Class]int{None: 0, Some: 1, All: 2}

// tally counts, for one agent, the files in each pair of classes (the
// exact reading's, a method's) and checks what must hold of each pair.
type tally struct {
	files int
	pairs map[Method]map[[2]Class]int // [exact, method]
}

func newTally() *tally {
	t := &tally{pairs: make(map[Method]map[[2]Class]int)}
	for _, m := range Methods() {
		t.pairs[m] = make(map[[2]Class]int)
	}
	return t
}

// add classifies body by every method and by the exact reading, and
// asserts what must hold whatever the file: imc and root read with
// Google's parser, so a file it says no path or every path of is read
// alike by each, and imc's some has a path of each verdict, so the exact
// reading says some too (or could not decide); dpi never leaves a body it
// can parse uncounted, nor imc or root any.
func (t *tally) add(tb testing.TB, name string, body []byte, agent string) {
	t.files++
	r := robots.Parse(body)
	exact := Exact(r, agent)
	f := NewFile(body, r)
	for _, m := range Methods() {
		got := f.Classify(m, agent)
		t.pairs[m][[2]Class{exact, got}]++
		switch m {
		case IMC, Root:
			if exact == None || exact == All {
				assert.Equal(tb, exact, got, "%s: %s for %s", name, m, agent)
			}
			if got == Some {
				assert.Contains(tb, []Class{Some, "undecided"}, exact, "%s: %s for %s", name, m, agent)
			}
			assert.NotEqual(tb, Uncounted, got, "%s: %s for %s", name, m, agent)
		}
		if m == Root {
			assert.NotEqual(tb, Some, got, "%s: root for %s", name, agent)
		}
	}
}

// row is one method's line of the comparison: files it reads as the exact
// reading does, as more blocked (a class further along none, some, all),
// as less blocked, and those one side does not class (uncounted by the
// method, undecided by the exact reading).
type row struct {
	classes              map[Class]int
	agree, more, less, n int
	uncomparable         int
}

func (t *tally) row(m Method) row {
	r := row{classes: make(map[Class]int), n: t.files}
	for p, n := range t.pairs[m] {
		r.classes[p[1]] += n
		e, eok := classOrder[p[0]]
		g, gok := classOrder[p[1]]
		switch {
		case !eok || !gok:
			r.uncomparable += n
		case g == e:
			r.agree += n
		case g > e:
			r.more += n
		default:
			r.less += n
		}
	}
	return r
}

func pct(n, of int) string {
	return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(of))
}

// table writes the comparison as docs/survey.md holds it.
func (t *tally) table(agent string) string {
	var b strings.Builder
	exact := make(map[Class]int)
	for p, n := range t.pairs[DPI] {
		exact[p[0]] += n
	}
	share := func(n int) string { return fmt.Sprintf("%d (%s)", n, pct(n, t.files)) }
	fmt.Fprintf(&b, "| reading (%s, %d files) | none | some | all | uncounted | as exact | more blocked | less blocked | differs |\n", agent, t.files)
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| exact | %s | %s | %s | %d undecided | | | | |\n", share(exact[None]), share(exact[Some]), share(exact[All]), exact["undecided"])
	for _, m := range Methods() {
		r := t.row(m)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", m,
			share(r.classes[None]), share(r.classes[Some]), share(r.classes[All]), share(r.classes[Uncounted]),
			share(r.agree), share(r.more), share(r.less), share(r.n-r.agree))
	}
	return b.String()
}

// matrix logs, per method, the files in each pair of classes.
func (t *tally) matrix(tb testing.TB) {
	exacts := []Class{None, Some, All, "undecided"}
	for _, m := range Methods() {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: exact \\ %s", m, m)
		for _, g := range []Class{None, Some, All, Uncounted} {
			fmt.Fprintf(&b, "\t%s", g)
		}
		for _, e := range exacts {
			fmt.Fprintf(&b, "\n%s", e)
			for _, g := range []Class{None, Some, All, Uncounted} {
				fmt.Fprintf(&b, "\t%d", t.pairs[m][[2]Class{e, g}])
			}
		}
		tb.Log(b.String())
	}
}

// TestLicensedCorpus: every method classes each robots.txt body of the
// licensed corpus for GPTBot; the counts against the exact reading are
// logged, and what must hold of each file is asserted (tally.add).
func TestLicensedCorpus(t *testing.T) {
	entries, err := os.ReadDir(licensedFiles)
	require.NoError(t, err)
	tl := newTally()
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(licensedFiles, e.Name()))
		require.NoError(t, err)
		tl.add(t, e.Name(), body, "GPTBot")
	}
	require.Equal(t, len(entries), tl.files)
	tl.matrix(t)
	t.Log("\n" + tl.table("GPTBot"))
	// Each method classes every file once.
	for _, m := range Methods() {
		r := tl.row(m)
		assert.Equal(t, tl.files, r.agree+r.more+r.less+r.uncomparable, m)
	}
}

// TestSharedCorpus gives, for GPTBot, how each method's classes differ
// from the exact reading over the full corpus's 26,816 robots.txt bodies
// (../shared, when present), the table of docs/survey.md's section
// "Published methods side by side":
//
//	go test ./cmd/robots/internal/methods -run TestSharedCorpus -v
func TestSharedCorpus(t *testing.T) {
	f, err := os.Open(sharedArchive)
	if err != nil {
		t.Skipf("the full corpus is not here (%v): TestLicensedCorpus reads the licensed subset", err)
	}
	defer f.Close()
	if testing.Short() {
		t.Skip("the full corpus takes a while: not in -short")
	}
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	tr := tar.NewReader(zr)
	tl := newTally()
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if h.Typeflag != tar.TypeReg || path.Dir(path.Clean(h.Name)) != "files" {
			continue
		}
		body, err := io.ReadAll(tr)
		require.NoError(t, err)
		names = append(names, h.Name)
		tl.add(t, h.Name, body, "GPTBot")
	}
	slices.Sort(names)
	require.Len(t, slices.Compact(names), sharedFiles)
	tl.matrix(t)
	t.Log("\n" + tl.table("GPTBot"))
}
