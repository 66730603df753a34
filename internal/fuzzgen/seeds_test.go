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

	"github.com/fastrobots/robots/internal/conformance"
	"github.com/fastrobots/robots/internal/fuzzgen"
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

// seedCorpora returns every seed file: directory (relative to this
// package) → file name → content.
func seedCorpora(t *testing.T) map[string]map[string][]byte {
	out := map[string]map[string][]byte{}
	add := func(dir, name string, args ...any) {
		if out[dir] == nil {
			out[dir] = map[string][]byte{}
		}
		out[dir][seedPrefix+name] = corpusFile(args...)
		if *gofuzzCorpus != "" {
			writeGofuzzSeed(t, dir, name, args)
		}
	}
	const (
		parse   = "../../compile/testdata/fuzz/FuzzParse"
		escape  = "../../compile/testdata/fuzz/FuzzEscapePattern"
		path    = "../../runtime/testdata/fuzz/FuzzPath"
		allowed = "../../testdata/fuzz/FuzzAllowed"
		set     = "../../automaton/testdata/fuzz/FuzzAutomaton"
	)
	for _, s := range fuzzgen.HostileBodies() {
		add(parse, s.Name, s.Body)
		add(allowed, s.Name, s.Body, "FooBot", "https://example.com/private/ok/index.html?q")
	}
	// One case of every conformance area: its body, agent and URL.
	areas := map[string]bool{}
	err := conformance.Each("../../testdata/conformance/spec-test.jsonl", func(_ int, c *conformance.Case) error {
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
// the native target whose corpus directory is dir.
func writeGofuzzSeed(t *testing.T, dir, name string, args []any) {
	var harness string
	var raw []byte
	switch filepath.Base(dir) {
	case "FuzzParse":
		harness, raw = "parse", args[0].([]byte)
	case "FuzzEscapePattern":
		harness, raw = "escape", []byte(args[0].(string))
	case "FuzzPath":
		harness, raw = "path", []byte(args[0].(string))
	case "FuzzAllowed": // agent LF URL LF body
		harness = "allowed"
		raw = append([]byte(args[1].(string)+"\n"+args[2].(string)+"\n"), args[0].([]byte)...)
	case "FuzzAutomaton": // 8 bytes of allow bits, the tie byte, path LF patterns
		harness = "automaton"
		raw = binary.LittleEndian.AppendUint64(nil, args[2].(uint64))
		raw = append(raw, args[3].(uint8))
		raw = append(raw, args[1].(string)+"\n"+args[0].(string)...)
	default:
		t.Fatalf("no go-fuzz harness for %s", dir)
	}
	out := filepath.Join(*gofuzzCorpus, harness, "corpus")
	require.NoError(t, os.MkdirAll(out, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(out, name), raw, 0o644))
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
// It is skipped without -crasher.
func TestImportCrasher(t *testing.T) {
	if *crasher == "" {
		t.Skip("no -crasher given")
	}
	raw, err := os.ReadFile(*crasher)
	require.NoError(t, err)
	harness := filepath.Base(filepath.Dir(filepath.Dir(*crasher)))
	name := *crasherName
	if name == "" {
		name = "regress-" + filepath.Base(*crasher)
	}
	var dir string
	var content []byte
	switch harness {
	case "parse":
		dir, content = "../../compile/testdata/fuzz/FuzzParse", corpusFile(raw)
	case "escape":
		dir, content = "../../compile/testdata/fuzz/FuzzEscapePattern", corpusFile(string(raw))
	case "path":
		dir, content = "../../runtime/testdata/fuzz/FuzzPath", corpusFile(string(raw))
	case "allowed":
		agent, rest, _ := bytes.Cut(raw, []byte("\n"))
		rawURL, body, _ := bytes.Cut(rest, []byte("\n"))
		dir, content = "../../testdata/fuzz/FuzzAllowed", corpusFile(body, string(agent), string(rawURL))
	case "automaton":
		var head [9]byte
		n := copy(head[:], raw)
		path, patterns, _ := strings.Cut(string(raw[n:]), "\n")
		dir = "../../automaton/testdata/fuzz/FuzzAutomaton"
		content = corpusFile(patterns, path, binary.LittleEndian.Uint64(head[:8]), head[8])
	default:
		t.Fatalf("%s: the crasher's directory names no harness (want $work/<harness>/crashers/<hash>)", *crasher)
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	out := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(out, content, 0o644))
	t.Logf("wrote %s", out)
}
