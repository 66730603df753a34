package fuzzgen_test

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/internal/testkit/conformance"
	"github.com/fastrobots/robots/internal/testkit/fuzzgen"
)

// updateSeeds rewrites the seed corpora of the native fuzz targets:
// go test ./internal/fuzzgen -run TestSeedCorpus -update-seeds
var updateSeeds = flag.Bool("update-seeds", false, "rewrite the seed corpora under */testdata/fuzz")

// gofuzzCorpus, when set, is a directory into which TestSeedCorpus writes
// the seeds as go-fuzz corpora: DIR/<harness>/corpus/<name>, raw inputs in
// the format each harness under fuzz/gofuzz decodes.
var gofuzzCorpus = flag.String("gofuzz-corpus", "", "write the seeds as go-fuzz corpora into this directory")

// seedPrefix starts the name of every seed file this test owns; files the
// fuzzing engine adds (crashers: a hash for a name) are left alone.
const seedPrefix = "seed-"

// maxSeedBytes bounds the seed corpora, all targets together.
const maxSeedBytes = 1 << 20

// corpusFile encodes one input of a fuzz target in the "go test fuzz v1"
// format (testing's corpus encoding: one Go literal per argument).
func corpusFile(args ...any) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case string:
			fmt.Fprintf(&b, "string(%q)\n", v)
		case uint64:
			fmt.Fprintf(&b, "uint64(%d)\n", v)
		case uint8:
			fmt.Fprintf(&b, "byte(%q)\n", v)
		default:
			panic(fmt.Sprintf("unsupported seed argument %T", a))
		}
	}
	return b.Bytes()
}

// nativeSeed is one input of a native fuzz target: the target's corpus
// directory (relative to this package), the input's name without
// seedPrefix, and its arguments.
type nativeSeed struct {
	dir, name string
	args      []any
}

// seedCorpora returns every seed file: directory (relative to this
// package) → file name → content.
func seedCorpora(t *testing.T) map[string]map[string][]byte {
	out := map[string]map[string][]byte{}
	for _, s := range nativeSeeds(t) {
		if out[s.dir] == nil {
			out[s.dir] = map[string][]byte{}
		}
		out[s.dir][seedPrefix+s.name] = corpusFile(s.args...)
		if *gofuzzCorpus != "" {
			writeGofuzzSeed(t, s)
		}
	}
	return out
}

// nativeSeeds returns every seed of every native target.
func nativeSeeds(t *testing.T) []nativeSeed {
	var out []nativeSeed
	add := func(dir, name string, args ...any) {
		out = append(out, nativeSeed{dir, name, args})
	}
	const (
		parse   = "../../../compile/testdata/fuzz/FuzzParse"
		escape  = "../../../compile/testdata/fuzz/FuzzEscapePattern"
		path    = "../../../runtime/testdata/fuzz/FuzzPath"
		allowed = "../../../testdata/fuzz/FuzzAllowed"
		set     = "../../../automaton/testdata/fuzz/FuzzAutomaton"
	)
	for _, s := range fuzzgen.HostileBodies() {
		add(parse, s.Name, s.Body)
		add(allowed, s.Name, s.Body, "FooBot", "https://example.com/private/ok/index.html?q")
	}
	// One case of every conformance area: its body, agent and URL.
	areas := map[string]bool{}
	err := conformance.Each("../../../testdata/conformance/spec-test.jsonl", func(_ int, c *conformance.Case) error {
		if areas[c.Area] {
			return nil
		}
		areas[c.Area] = true
		body, err := c.Body()
		if err != nil {
			return err
		}
		name := "conformance-" + strings.NewReplacer("/", "-", "#", "-").Replace(c.Area)
		add(parse, name, body)
		add(allowed, name, body, c.UserAgent, c.URL)
		return nil
	})
	require.NoError(t, err)
	for i, u := range fuzzgen.HostileURLs() {
		add(path, fmt.Sprintf("%02d", i), u)
	}
	for i, v := range fuzzgen.HostileValues() {
		add(escape, fmt.Sprintf("%02d", i), v)
	}
	sets := []struct {
		name, patterns, path string
		allow                uint64
		tie                  uint8
	}{
		{"longest-match", "/page\n/*\n/pag*\n/page/x\n/page/x\n", "/page/x", 0b00110, 0},
		{"allow-wins-tie", "/a*\n/a$\n/*a", "/a", 0b010, 0},
		{"anchors", "/a$\n$\n/$\n/a$b\n/a$$\n*$", "/a$", 0b101010, 0},
		{"empty-lines", "\n\n/x\n\n*", "/x", ^uint64(0), 0},
		{"star-heavy", "/" + strings.Repeat("*a", 30) + "\n/" + strings.Repeat("a*", 30) + "b$", "/" + strings.Repeat("a", 80), 1, 0},
		{"stars-only", strings.Repeat("*", 200) + "\n/" + strings.Repeat("*", 100) + "$", "/x", 2, 0},
		{"ties", "/a\n/b\n/ab\n/ba\n/*\n/**", "/ab", 0b100101, 1},
		{"many", strings.Repeat("/x*y\n/x\n/*z$\n/y*\n", 16), "/xyz", 0xAAAAAAAAAAAAAAAA, 2},
		{"bytes", "/\xFF*\x00\n/%*\n/\xC3\xA9$", "/\xFF\x00\xC3\xA9", 3, 0},
	}
	for _, s := range sets {
		add(set, s.name, s.patterns, s.path, s.allow, s.tie)
	}
	return out
}

// TestSeedCorpus checks that the seed corpora on disk are those
// seedCorpora writes, and that they stay small. With -update-seeds it
// writes them.
func TestSeedCorpus(t *testing.T) {
	corpora := seedCorpora(t)
	total := 0
	dirs := make([]string, 0, len(corpora))
	for dir := range corpora {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		files := corpora[dir]
		if *updateSeeds {
			require.NoError(t, os.MkdirAll(dir, 0o755))
			old, _ := filepath.Glob(filepath.Join(dir, seedPrefix+"*"))
			for _, f := range old {
				if _, keep := files[filepath.Base(f)]; !keep {
					require.NoError(t, os.Remove(f))
				}
			}
		}
		for name, want := range files {
			total += len(want)
			file := filepath.Join(dir, name)
			if *updateSeeds {
				require.NoError(t, os.WriteFile(file, want, 0o644))
				continue
			}
			got, err := os.ReadFile(file)
			require.NoError(t, err, "run: go test ./internal/fuzzgen -run TestSeedCorpus -update-seeds")
			require.Equal(t, string(want), string(got), "%s is stale; run: go test ./internal/fuzzgen -run TestSeedCorpus -update-seeds", file)
		}
		on, _ := filepath.Glob(filepath.Join(dir, seedPrefix+"*"))
		require.Len(t, on, len(files), "%s holds seed files no longer written", dir)
	}
	require.Less(t, total, maxSeedBytes, "the seed corpora must stay small")
}

// Every hostile seed passes the invariants of the body and URL targets.
func TestSeedsPassChecks(t *testing.T) {
	var urls []string
	urls = append(urls, fuzzgen.HostileURLs()...)
	for _, s := range fuzzgen.HostileBodies() {
		require.NoError(t, fuzzgen.CheckParse(s.Body), s.Name)
		require.NoError(t, fuzzgen.CheckDecisions(s.Body, []string{"FooBot", "BarBot", "Baz", "", "*", "Googlebot"}, urls), s.Name)
	}
	for _, u := range urls {
		require.NoError(t, fuzzgen.CheckPath(u))
	}
	for _, v := range fuzzgen.HostileValues() {
		require.NoError(t, fuzzgen.CheckEscape(v))
	}
}

// writeGofuzzSeed writes one seed as a raw go-fuzz input for the harness of
// its native target.
func writeGofuzzSeed(t *testing.T, s nativeSeed) {
	harness, raw := gofuzzInput(t, s)
	out := filepath.Join(*gofuzzCorpus, harness, "corpus")
	require.NoError(t, os.MkdirAll(out, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(out, s.name), raw, 0o644))
}

// gofuzzInput returns the go-fuzz harness of the seed's native target and
// the seed as a raw input of that harness, in the format it decodes.
func gofuzzInput(t *testing.T, s nativeSeed) (harness string, raw []byte) {
	args := s.args
	switch filepath.Base(s.dir) {
	case "FuzzParse":
		return "parse", args[0].([]byte)
	case "FuzzEscapePattern":
		return "escape", []byte(args[0].(string))
	case "FuzzPath":
		return "path", []byte(args[0].(string))
	case "FuzzAllowed": // agent LF URL LF body
		return "allowed", append([]byte(args[1].(string)+"\n"+args[2].(string)+"\n"), args[0].([]byte)...)
	case "FuzzAutomaton": // 8 bytes of allow bits, the tie byte, path LF patterns
		raw = binary.LittleEndian.AppendUint64(nil, args[2].(uint64))
		raw = append(raw, args[3].(uint8))
		return "automaton", append(raw, args[1].(string)+"\n"+args[0].(string)...)
	}
	t.Fatalf("no go-fuzz harness for %s", s.dir)
	return "", nil
}

// Flags of TestImportCrasher.
var (
	crasher     = flag.String("crasher", "", "a go-fuzz crasher (raw input) to import as a native regression input")
	crasherName = flag.String("crasher-name", "", "the name of the imported file (default: regress-<crasher's base name>)")
)

// TestImportCrasher turns a go-fuzz crasher into an input of the matching
// native target, decoding it as its harness does:
//
//	go test ./internal/fuzzgen -run TestImportCrasher -crasher=$work/parse/crashers/<hash> -crasher-name=regress-what
//
// The harness is read from the crasher's path ($work/<harness>/crashers/).
// Without -crasher it checks the import instead: every seed, in the raw
// form its go-fuzz harness reads, imports as the seed's own input of its
// native target, so that a crasher imported becomes the input go-fuzz ran.
func TestImportCrasher(t *testing.T) {
	if *crasher == "" {
		for _, s := range nativeSeeds(t) {
			harness, raw := gofuzzInput(t, s)
			dir, content, err := decodeCrasher(harness, raw)
			require.NoError(t, err, s.name)
			require.Equal(t, s.dir, dir, "%s/%s", harness, s.name)
			require.Equal(t, string(corpusFile(s.args...)), string(content), "%s/%s", harness, s.name)
		}
		return
	}
	raw, err := os.ReadFile(*crasher)
	require.NoError(t, err)
	harness := filepath.Base(filepath.Dir(filepath.Dir(*crasher)))
	name := *crasherName
	if name == "" {
		name = "regress-" + filepath.Base(*crasher)
	}
	dir, content, err := decodeCrasher(harness, raw)
	require.NoError(t, err, *crasher)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	out := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(out, content, 0o644))
	t.Logf("wrote %s", out)
}

// decodeCrasher decodes raw, an input of the go-fuzz harness named, as
// that harness does, and returns the corpus directory of the matching
// native target (relative to this package) and the input in its format.
func decodeCrasher(harness string, raw []byte) (dir string, content []byte, err error) {
	switch harness {
	case "parse":
		return "../../../compile/testdata/fuzz/FuzzParse", corpusFile(raw), nil
	case "escape":
		return "../../../compile/testdata/fuzz/FuzzEscapePattern", corpusFile(string(raw)), nil
	case "path":
		return "../../../runtime/testdata/fuzz/FuzzPath", corpusFile(string(raw)), nil
	case "allowed":
		agent, rest, _ := bytes.Cut(raw, []byte("\n"))
		rawURL, body, _ := bytes.Cut(rest, []byte("\n"))
		return "../../../testdata/fuzz/FuzzAllowed", corpusFile(body, string(agent), string(rawURL)), nil
	case "automaton":
		var head [9]byte
		n := copy(head[:], raw)
		path, patterns, _ := strings.Cut(string(raw[n:]), "\n")
		return "../../../automaton/testdata/fuzz/FuzzAutomaton", corpusFile(patterns, path, binary.LittleEndian.Uint64(head[:8]), head[8]), nil
	}
	return "", nil, fmt.Errorf("the crasher's directory names no harness %q (want $work/<harness>/crashers/<hash>)", harness)
}
