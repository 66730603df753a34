package fuzzgen_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFuzzTargetsListed holds docs/fuzzing.md's commands and .ci/run's
// list to the native fuzz targets the module has: a target added, renamed
// or removed must be so in both, or CI stops fuzzing it unseen.
func TestFuzzTargetsListed(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	inCode := codeTargets(t, root)
	if len(inCode) == 0 {
		t.Fatal("no func FuzzXxx(f *testing.F) found below the module root")
	}

	ci := readFile(t, filepath.Join(root, ".ci", "run"))
	start := strings.Index(ci, "<<'TARGETS'\n")
	end := strings.Index(ci, "\nTARGETS\n")
	if start < 0 || end < start {
		t.Fatal(".ci/run has no TARGETS list")
	}
	var inCI []string
	for _, line := range strings.Split(ci[start+len("<<'TARGETS'\n"):end], "\n") {
		// PKG TARGET, and an optional count of the target's own.
		if f := strings.Fields(line); len(f) == 2 || len(f) == 3 {
			inCI = append(inCI, f[0]+" "+f[1])
		}
	}

	doc := readFile(t, filepath.Join(root, "docs", "fuzzing.md"))
	cmd := regexp.MustCompile(`(?m)^go test -run '\^\$' -fuzz='\^(Fuzz\w+)\$'\s+-fuzztime=10m (\S+)$`)
	var inDoc []string
	for _, m := range cmd.FindAllStringSubmatch(doc, -1) {
		inDoc = append(inDoc, m[2]+" "+m[1])
	}

	slices.Sort(inCI)
	slices.Sort(inDoc)
	if !slices.Equal(inCode, inCI) {
		t.Errorf(".ci/run fuzzes\n%s\nthe module has\n%s", strings.Join(inCI, "\n"), strings.Join(inCode, "\n"))
	}
	if !slices.Equal(inCode, inDoc) {
		t.Errorf("docs/fuzzing.md lists\n%s\nthe module has\n%s", strings.Join(inDoc, "\n"), strings.Join(inCode, "\n"))
	}
}

// fuzzedModules are the modules beside the root whose fuzz targets CI runs
// from the root too (through go.work): the command's.
var fuzzedModules = map[string]bool{"cmd/robots": true}

// codeTargets returns "PKG FuzzXxx" for each native fuzz target of the
// root module and of fuzzedModules, PKG as go test names it from the root
// ("." or "./dir").
func codeTargets(t *testing.T, root string) []string {
	decl := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(\w+ \*testing\.F\)`)
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(root, path)
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || exists(filepath.Join(path, "go.mod")) && !fuzzedModules[filepath.ToSlash(rel)]) {
				return filepath.SkipDir // another module, or not Go
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := "./" + filepath.ToSlash(rel)
		if rel == "." {
			pkg = "."
		}
		for _, m := range decl.FindAllStringSubmatch(readFile(t, path), -1) {
			found = append(found, pkg+" "+m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	return found
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
