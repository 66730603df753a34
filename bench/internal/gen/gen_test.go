package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestCommittedFilesAreGenerated checks that testdata/ holds what gen writes,
// so the workload can be regenerated and reviewed from this source.
func TestCommittedFilesAreGenerated(t *testing.T) {
	for name, want := range Files() {
		got, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/%s differs from the generator's output: run `go run ./internal/gen` in bench/", name)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := Files(), Files()
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s: two runs differ", name)
		}
	}
}

// shopShape is what TestShopShape counts in shop.txt.
type shopShape struct {
	bytes, userAgents, rules, stars, dollars int
	starGroup                                int      // rules of the groups that name '*'
	tokens                                   []string // every user-agent token, lower-cased
}

func shapeOf(body []byte) shopShape {
	s := shopShape{bytes: len(body)}
	var agents []string
	inRules := false
	for _, line := range strings.Split(string(body), "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "user-agent":
			if inRules {
				agents, inRules = nil, false
			}
			agents = append(agents, value)
			s.userAgents++
			s.tokens = append(s.tokens, strings.ToLower(value))
		case "allow", "disallow":
			inRules = true
			s.rules++
			if strings.Contains(value, "*") {
				s.stars++
			}
			if strings.Contains(value, "$") {
				s.dollars++
			}
			if slices.Contains(agents, "*") {
				s.starGroup++
			}
		}
	}
	return s
}

// TestShopShape pins the shape of shop.txt, which the cold-path benchmarks
// are described by: its size, its user-agent lines, its rules with '*' and
// '$', and the '*' group that a crawler no group names (ExampleBot) falls
// into. No token may be a prefix of "examplebot" either, as some peers
// match agents by prefix.
func TestShopShape(t *testing.T) {
	s := shapeOf(Shop())
	if s.bytes < 16000 || s.bytes > 18000 {
		t.Errorf("shop.txt is %d bytes, want about 17 KB", s.bytes)
	}
	want := shopShape{bytes: s.bytes, userAgents: 32, rules: 599, stars: 395, dollars: 142, starGroup: 260, tokens: s.tokens}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("shop.txt: %+v, want %+v", s, want)
	}
	for _, tok := range s.tokens {
		if tok != "*" && strings.HasPrefix("examplebot", tok) {
			t.Errorf("token %q names ExampleBot", tok)
		}
	}
	paths := strings.Fields(string(ShopURLs()))
	queries := 0
	seen := map[string]bool{}
	for _, p := range paths {
		if p[0] != '/' || len(p) > 120 || seen[p] {
			t.Errorf("shop-urls.txt: %q: want a distinct path of at most 120 bytes", p)
		}
		seen[p] = true
		if strings.Contains(p, "?") {
			queries++
		}
	}
	if len(paths) != 64 || queries < 32 {
		t.Errorf("shop-urls.txt: %d paths, %d with a query; want 64, at least half with a query", len(paths), queries)
	}
}
