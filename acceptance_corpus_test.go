package robots_test

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/memstat"
)

// The real-world corpus: 28,515 robots.txt bodies (and HTML pages served
// as robots.txt) in ../shared, and its permissively licensed subset in
// testdata/corpus. Every file is parsed in both modes, resolved for several
// crawlers and asked about its crawled URLs and a few synthetic ones. A
// file must not panic, must finish within HangGuard, and must stay within a
// memory ceiling proportional to the bytes it makes the engine read:
// generous, but a super-linear blowup on some input passes it by orders of
// magnitude. Allocation is counted, not timed, so the ceiling holds on a
// loaded machine. There is no time ceiling: speed is measured by the
// benchmarks in bench/ (BenchmarkCorpus, BenchmarkCorpusAll); the tests
// only log the worst nanoseconds per byte they saw.
const (
	corpusArchive    = "../shared/corpus/robots-corpus.tar.gz"
	corpusURLs       = "../shared/corpus/crawled-urls.tsv.gz"
	corpusSharedSize = 28515 // files in the archive's files/ and files_html/
	corpusLicensed   = "testdata/corpus"

	// CorpusMaxAllocPerByte is the memory ceiling of one file: bytes
	// allocated per byte read (the body up to MaxBytes plus the URLs
	// asked), for both modes, four agents and all URLs together; about 5
	// times the worst measured on large files (~100). CorpusMinAlloc is its
	// floor: each of the 8 rule sets of a file (4 agents × 2 modes) may
	// fill its lazy DFA's memory budget (2 MiB by default), whatever the
	// size of the file.
	CorpusMaxAllocPerByte = 500
	CorpusMinAlloc        = 32 << 20
)

// corpusAgents are the crawlers every file is resolved for: two common ones,
// one no file names (so the '*' groups apply), and a fallback list.
var corpusAgents = [][]string{{"Googlebot"}, {"Bingbot"}, {"CorpusNoSuchBot"}, {"Googlebot-Image", "Googlebot"}}

// corpusSynthetic are URLs asked of every file besides its crawled ones.
var corpusSynthetic = []string{
	"https://example.com/", "https://example.com/robots.txt", "https://example.com/index.html",
	"https://example.com/a/b/c;p?d=e&f=%2F#g", "https://example.com/%E3%83%84/caf\u00e9?q=\u00fc",
	"https://example.com/" + strings.Repeat("a/", 1024),
}

// corpusStats are the worst ratios seen, logged so that the memory ceiling
// can be judged against them; the time ratios are for information only.
type corpusStats struct {
	files, bytes, decisions int
	worstNs, worstAlloc     float64
	worstNsFile, worstAFile string
	// the same among inputs of corpusLarge bytes read or more, where the
	// floors do not apply
	largeNs, largeAlloc     float64
	largeNsFile, largeAFile string
}

// corpusLarge is the size from which an input is judged on the per-byte
// ceiling rather than on the floor.
const corpusLarge = 256 << 10

// corpusCheck runs one file under the hang guard and checks its memory
// ceiling.
func corpusCheck(t *testing.T, name string, body []byte, urls []string, st *corpusStats) {
	t.Helper()
	all := append(append([]string(nil), urls...), corpusSynthetic...)
	ruleURLs, err := corpusRuleURLs(body)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	all = append(all, ruleURLs...)
	read := min(len(body), robots.MaxBytes)
	for _, u := range all {
		read += len(u)
	}
	allocLimit := max(uint64(CorpusMinAlloc), uint64(read)*CorpusMaxAllocPerByte)

	var decisions int
	a0, t0 := memstat.Allocated(), time.Now()
	if !finishes(func() { decisions, err = corpusRun(body, all) }) {
		t.Fatalf("%s: not done after %v: a hang", name, hangGuard())
	}
	elapsed, alloc := time.Since(t0), memstat.Allocated()-a0
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if alloc > allocLimit {
		t.Errorf("%s: %d bytes allocated for %d bytes read, over the ceiling of %d (%d per byte)", name, alloc, read, allocLimit, CorpusMaxAllocPerByte)
	}
	st.files++
	st.bytes += len(body)
	st.decisions += decisions
	if r := float64(elapsed.Nanoseconds()) / float64(read); r > st.worstNs {
		st.worstNs, st.worstNsFile = r, name
	}
	if r := float64(alloc) / float64(read); r > st.worstAlloc {
		st.worstAlloc, st.worstAFile = r, name
	}
	if read >= corpusLarge {
		if r := float64(elapsed.Nanoseconds()) / float64(read); r > st.largeNs {
			st.largeNs, st.largeNsFile = r, name
		}
		if r := float64(alloc) / float64(read); r > st.largeAlloc {
			st.largeAlloc, st.largeAFile = r, name
		}
	}
}

// corpusRun reports body as Google does (robots.ReportOf), parses it in
// both modes, resolves every corpus agent and decides every URL, checking that each verdict agrees with its deciding
// rule and that AllowedMany answers the URLs as Allowed does. A panic is returned as an error.
func corpusRun(body []byte, urls []string) (decisions int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	// Google's report of the file: a line for each line the parser reads.
	rep := robots.ReportOf(body)
	if n := robots.Parse(body).Lines(); rep.LastLine != n || len(rep.Lines) != n || rep.Valid+rep.Unused > n {
		return 0, fmt.Errorf("report: last line %d, %d lines, %d valid, %d unused; the parser read %d lines", rep.LastLine, len(rep.Lines), rep.Valid, rep.Unused, n)
	}
	many := make([]bool, len(urls))
	for _, m := range []robots.Mode{robots.Google, robots.RFC} {
		r := robots.Parse(body, robots.WithMode(m))
		if r.Truncated() != (len(body) > robots.MaxBytes) || r.Lines() < 1 {
			return decisions, fmt.Errorf("%v mode: Truncated = %v, Lines = %d for %d bytes", m, r.Truncated(), r.Lines(), len(body))
		}
		for _, agents := range corpusAgents {
			a := r.Agent(agents...)
			if want := corpusFirstNamed(r, agents); a.Name() != want {
				return decisions, fmt.Errorf("%v mode: Agent(%q) obeys %q, want %q", m, agents, a.Name(), want)
			}
			for _, u := range urls {
				d := a.Decide(u)
				if (d.Rule == nil && !d.Allowed) || (d.Rule != nil && d.Rule.Allow != d.Allowed) || a.Allowed(u) != d.Allowed {
					return decisions, fmt.Errorf("%v mode: agent %q, URL %q: inconsistent decision %+v", m, agents, u, d)
				}
				decisions++
			}
			a.AllowedMany(urls, many)
			for i, u := range urls {
				if many[i] != a.Allowed(u) {
					return decisions, fmt.Errorf("%v mode: agent %q, URL %q: AllowedMany says %v, Allowed %v", m, agents, u, many[i], !many[i])
				}
			}
		}
	}
	return decisions, nil
}

// corpusFirstNamed returns the first of agents some group names, by its
// product tokens, or "".
func corpusFirstNamed(r *robots.Robots, agents []string) string {
	for _, a := range agents {
		for _, g := range r.Groups() {
			for _, line := range g.Agents {
				if !line.Global && strings.EqualFold(line.Token, a) {
					return a
				}
			}
		}
	}
	return ""
}

// corpusRuleURLs derives URLs from the first rules of a file: '*' filled
// in, a final '$' dropped. A panic is returned as an error.
func corpusRuleURLs(body []byte) (out []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	fill := strings.NewReplacer("*", "x", "$", "")
	for _, g := range robots.Parse(body).Groups() {
		for _, r := range g.Rules {
			if len(out) == 16 {
				return out, nil
			}
			if strings.HasPrefix(r.Value, "/") {
				out = append(out, "https://example.com"+fill.Replace(r.Value))
			}
		}
	}
	return out, nil
}

func (st *corpusStats) log(t *testing.T, elapsed time.Duration) {
	t.Logf("%d files, %d bytes, %d decisions in %v; worst %.0f ns/byte (%s), %.1f bytes allocated/byte (%s); "+
		"from %d KiB read: worst %.0f ns/byte (%s), %.1f bytes allocated/byte (%s)",
		st.files, st.bytes, st.decisions, elapsed.Round(time.Millisecond), st.worstNs, st.worstNsFile, st.worstAlloc, st.worstAFile,
		corpusLarge>>10, st.largeNs, st.largeNsFile, st.largeAlloc, st.largeAFile)
}

// readCrawledURLs reads crawled-urls.tsv.gz: file → URLs.
func readCrawledURLs(t *testing.T, path string) map[string][]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	out := map[string][]string{}
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 2 || cols[0] == "file" {
			continue
		}
		out[cols[0]] = append(out[cols[0]], cols[1])
	}
	require.NoError(t, sc.Err())
	return out
}

// skipWithoutCorpus skips a test that needs the shared corpus when it is
// not beside this repository.
func skipWithoutCorpus(t *testing.T) {
	if _, err := os.Stat(corpusArchive); errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s is absent: the shared corpus is not beside this repository", corpusArchive)
	}
}

// eachCorpusFile calls fn with the name and contents of every regular file
// of the shared corpus archive, in archive order, in one pass that unpacks
// one file at a time in memory. fn may keep body.
func eachCorpusFile(t *testing.T, fn func(name string, body []byte)) {
	t.Helper()
	f, err := os.Open(corpusArchive)
	require.NoError(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	tr := tar.NewReader(z)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		require.NoError(t, err)
		if h.Typeflag != tar.TypeReg {
			continue
		}
		body, err := io.ReadAll(tr)
		require.NoError(t, err)
		fn(h.Name, body)
	}
}

// TestCorpusShared runs every file of the shared corpus with its crawled
// URLs.
func TestCorpusShared(t *testing.T) {
	skipWithoutCorpus(t)
	if raceEnabled {
		t.Skip("the whole corpus takes too long under the race detector; TestCorpusLicensed runs a part of it")
	}
	start := time.Now()
	urls := readCrawledURLs(t, corpusURLs)
	var st corpusStats
	seen := map[string]bool{}
	eachCorpusFile(t, func(name string, body []byte) {
		if !strings.HasPrefix(name, "files/") && !strings.HasPrefix(name, "files_html/") {
			return
		}
		n := len(seen)
		seen[name] = true
		if testing.Short() && n%10 != 0 {
			return // -short: every tenth file
		}
		corpusCheck(t, name, body, urls[name], &st)
	})
	require.Len(t, seen, corpusSharedSize, "files in %s", corpusArchive)
	for file := range urls {
		require.True(t, seen[file], "crawled-urls.tsv.gz names %s, which the archive lacks", file)
	}
	st.log(t, time.Since(start))
}

// TestCorpusLicensed runs the permissively licensed subset kept in
// testdata/corpus, which needs nothing outside the repository.
func TestCorpusLicensed(t *testing.T) {
	start := time.Now()
	manifest, err := os.ReadFile(filepath.Join(corpusLicensed, "manifest.tsv"))
	require.NoError(t, err)
	var st corpusStats
	n := 0
	for i, line := range strings.Split(strings.TrimSpace(string(manifest)), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 {
			require.Equal(t, "file", cols[0], "manifest header")
			continue
		}
		body, err := os.ReadFile(filepath.Join(corpusLicensed, filepath.FromSlash(cols[0])))
		require.NoError(t, err)
		require.Equal(t, cols[1], fmt.Sprint(len(body)), "%s: size in the manifest", cols[0])
		corpusCheck(t, cols[0], body, nil, &st)
		n++
	}
	require.Equal(t, 2682, n, "files in %s/manifest.tsv", corpusLicensed)
	st.log(t, time.Since(start))
}
