// Package worstcase builds robots.txt files of the shapes that cost the
// linter and Explain the most work for their size: many groups, many
// user-agent lines in one group, many rules, identical rules, long lines,
// many sitemaps or unknown directives, a group named by thousands of agents
// that each have a group of their own, and '*'-heavy patterns for the
// precedence checks.
//
// A shape is a head, a unit repeated as often as it fits, and a tail; Build
// pads the rest with a comment, so that a file of any size can be built and
// one of robots.MaxBytes fills all Google reads. The benchmarks of package
// lint and of package robots, and their scaling tests, share these shapes.
package worstcase

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/fastrobots/robots/compile"
)

// Shape is one worst case.
type Shape struct {
	// Name names the shape in benchmark and test names.
	Name string
	// Agents and URL are what Explain is asked about: the agents whose
	// selection is the largest, and a URL that matches many rules.
	Agents []string
	URL    string

	head, tail string
	unit       func(i int) string // the i-th repeated piece
	// build, when set, builds the whole file instead of head, unit and
	// tail: for shapes with two parts that grow together.
	build func(size int) string
}

// Build returns the shape in exactly size bytes: as many units as fit
// between the head and the tail, then a comment line, or a bare line
// break, for the bytes left. size must hold the head and the tail.
func (s Shape) Build(size int) []byte {
	var b strings.Builder
	b.Grow(size)
	if s.build != nil {
		b.WriteString(s.build(size))
	} else {
		b.WriteString(s.head)
		for i := 0; ; i++ {
			u := s.unit(i)
			if b.Len()+len(u)+len(s.tail) > size {
				break
			}
			b.WriteString(u)
		}
		b.WriteString(s.tail)
	}
	pad(&b, size)
	return []byte(b.String())
}

// SmallSize returns a size that holds a few units of the shape, at least
// four and at least 2 KiB of them, for tests that compare outputs in full.
func (s Shape) SmallSize() int {
	if s.build != nil {
		return 4 << 10
	}
	return max(2<<10, len(s.head)+4*len(s.unit(0))+len(s.tail))
}

// pad fills b up to size bytes with a comment line; a single byte left is
// a line break.
func pad(b *strings.Builder, size int) {
	switch n := size - b.Len(); {
	case n == 1:
		b.WriteByte('\n')
	case n >= 2:
		b.WriteByte('#')
		b.WriteString(strings.Repeat("x", n-2))
		b.WriteByte('\n')
	}
}

// Token returns the i-th of a sequence of distinct product tokens made of
// letters only: "a" to "z", then "aa", "ab" and so on.
func Token(i int) string {
	var buf [16]byte
	n := len(buf)
	for i++; i > 0; i = (i - 1) / 26 {
		n--
		buf[n] = byte('a' + (i-1)%26)
	}
	return string(buf[n:])
}

func repeat(s string) func(int) string { return func(int) string { return s } }

// longValue is a pattern just under the longest the precedence checks
// analyse.
var longValue = "/" + strings.Repeat("a", 1000)

// starBacktrack returns an allow and a disallow as long as each other,
// where the allow would win but does not cover the disallow: a glob
// matcher that backtracks to its last star tries each byte of the disallow
// as the start of the allow's run of 'a's, and reads most of the run each
// time. The allows differ, so that none stands for another.
func starBacktrack(i int) string {
	t := Token(i)
	run := strings.Repeat("a", 500)
	return "allow:/*" + run + "b" + t + "\ndisallow:/" + run + strings.Repeat("a", 2+len(t)) + "\n"
}

// Shapes are the worst cases, by name.
var Shapes = []Shape{
	{
		// Many groups naming one agent, merged into one selection.
		Name: "groups", Agents: []string{"a"}, URL: "https://example.com/x",
		unit: repeat("user-agent:a\nallow:/\n"), tail: "user-agent:a\ndisallow:/\n",
	},
	{
		// Many groups, each naming its own agent and '*': as many
		// selections as groups, and one '*' selection of all of them.
		Name: "groups-distinct", Agents: []string{"unnamed"}, URL: "https://example.com/x",
		unit: func(i int) string {
			t := Token(i)
			return "user-agent:" + t + "\nuser-agent:*\ndisallow:/" + t + "\nallow:/" + t + "\n"
		},
	},
	{
		// One group named by every line, each cut at its version.
		Name: "agents-one-group", Agents: []string{"a"}, URL: "https://example.com/x",
		unit: repeat("user-agent:a/1\n"), tail: "disallow:/\n",
	},
	{
		// One group named by as many distinct agents as fit.
		Name: "agents-distinct", Agents: []string{"a"}, URL: "https://example.com/x",
		unit: func(i int) string { return "user-agent:" + Token(i) + "\n" }, tail: "disallow:/\nallow:/\n",
	},
	{
		// User-agent lines each parted from the next by a blank line:
		// every one is reported as having no rules of its own.
		Name: "orphan-agents", Agents: []string{"a"}, URL: "https://example.com/x",
		unit: func(i int) string { return "user-agent:" + Token(i) + "\n\n" }, tail: "disallow:/\n",
	},
	{
		// Many distinct rules in one group, each disallow cancelled by an
		// allow of the same pattern.
		Name: "rules-one-group", Agents: []string{"a"}, URL: "https://example.com/a",
		head: "user-agent:*\n",
		unit: func(i int) string { t := Token(i); return "allow:/" + t + "\ndisallow:/" + t + "\n" },
	},
	{
		// The same allow and disallow over and over: every rule matches.
		Name: "identical-rules", Agents: []string{"a"}, URL: "https://example.com/x",
		head: "user-agent:*\n", unit: repeat("allow:/\ndisallow:/\n"),
	},
	{
		// Rules longer than the longest line Google reads.
		Name: "long-lines", Agents: []string{"a"}, URL: "https://example.com/" + strings.Repeat("a", compile.MaxLineBytes),
		head: "user-agent:*\n", unit: repeat("disallow:/" + strings.Repeat("a", compile.MaxLineBytes) + "\n"),
	},
	{
		// The longest patterns the precedence checks analyse, as allow and
		// disallow pairs.
		Name: "long-patterns", Agents: []string{"a"}, URL: "https://example.com" + longValue,
		head: "user-agent:*\n", unit: repeat("allow:" + longValue + "\ndisallow:" + longValue + "\n"),
	},
	{
		// Distinct '*' patterns with the same literal prefix: every allow
		// is a candidate to beat every disallow, and one of them does.
		Name: "star-patterns", Agents: []string{"a"}, URL: "https://example.com/abcdefghijklmnopqrstuvwxyz",
		head: "user-agent:*\n",
		unit: func(i int) string { t := Token(i); return "disallow:/*" + t + "\nallow:/*" + t + "*\n" },
	},
	{
		// Allows as long as the disallows, which cover none of them: a
		// backtracking glob matcher is quadratic on each pair.
		Name: "star-backtrack", Agents: []string{"a"}, URL: "https://example.com/" + strings.Repeat("a", 505),
		head: "user-agent:*\n", unit: starBacktrack, tail: "disallow:/*\nallow:/**\n",
	},
	{
		// Sitemaps, every other one relative.
		Name: "sitemaps", Agents: []string{"a"}, URL: "https://example.com/x",
		head: "user-agent:*\ndisallow:/x\n",
		unit: func(i int) string {
			t := Token(i)
			return "sitemap:https://example.com/" + t + ".xml\nsitemap:/" + t + ".xml\n"
		},
	},
	{
		// Directives Google does not read: invalid, ignored and unknown.
		Name: "unknown-directives", Agents: []string{"a"}, URL: "https://example.com/x",
		head: "user-agent:*\ndisallow:/x\n",
		unit: func(i int) string { t := Token(i); return "crawl-delay:x\nnoindex:/" + t + "\nfoo" + t + ":bar\n" },
	},
	{
		// One group named by thousands of agents, each of which also
		// names a group of its own: as many selections as agents, each
		// holding the big group.
		Name: "merged-agents", Agents: []string{"a"}, URL: "https://example.com/a",
		build: mergedAgents,
	},
}

// mergedAgents builds the merged-agents shape: a first group named by k
// agents, with pairs of rules that cancel each other, then k groups each
// naming one of those agents; over a third of the bytes go to the rules.
func mergedAgents(size int) string {
	var agents, rules, groups strings.Builder
	for i := 0; ; i++ {
		t := Token(i)
		agent := "user-agent:" + t + "\n"
		group := agent + "allow:/" + t + "/\n"
		rule := "allow:/" + t + "\ndisallow:/" + t + "\n"
		n := agents.Len() + rules.Len() + groups.Len()
		if n+len(agent)+len(group)+len(rule) > size {
			break
		}
		agents.WriteString(agent)
		groups.WriteString(group)
		rules.WriteString(rule)
	}
	return agents.String() + rules.String() + groups.String()
}

// Get returns the shape named name.
func Get(name string) (Shape, bool) {
	for _, s := range Shapes {
		if s.Name == name {
			return s, true
		}
	}
	return Shape{}, false
}

// Clip returns s, or when it is long its ends and a digest of the whole:
// how the golden files of the worst-case tests hold long outputs.
func Clip(s string) string {
	if len(s) <= 400 {
		return s
	}
	return fmt.Sprintf("%s ... %s (%d bytes, sha256 %x)", s[:150], s[len(s)-150:], len(s), sha256.Sum256([]byte(s)))
}

// RulePaths returns a generator of request targets for body's rules: the
// i-th of n bytes is prefix (an origin, or "") and then, for three i in
// four, the path of one of body's Allow or Disallow values, its stars
// filled with up to three random bytes and its '$' dropped, or else "/";
// then random path bytes up to n bytes in all (never cut shorter than
// prefix and one byte). The same seed and i give the same target, so that
// the benchmarks that price requests ask the same of every build.
func RulePaths(body []byte, prefix string, seed uint64) func(n, i int) string {
	var patterns []string
	for line := range strings.Lines(string(body)) {
		k, v, ok := strings.Cut(line, ":")
		k = strings.ToLower(strings.TrimSpace(k))
		if v = strings.TrimSpace(v); ok && (k == "allow" || k == "disallow") && strings.HasPrefix(v, "/") {
			patterns = append(patterns, v)
		}
	}
	const fill = "abcdefghijklmnopqrstuvwxyz0123456789/-_.?=&"
	return func(n, i int) string {
		r := rand.New(rand.NewPCG(uint64(i), seed))
		b := []byte(prefix)
		if len(patterns) > 0 && i%4 != 3 {
			for _, c := range []byte(patterns[r.IntN(len(patterns))]) {
				switch c {
				case '*':
					for range r.IntN(4) {
						b = append(b, fill[r.IntN(len(fill))])
					}
				case '$':
				default:
					b = append(b, c)
				}
			}
		} else {
			b = append(b, '/')
		}
		for len(b) < n {
			b = append(b, fill[r.IntN(len(fill))])
		}
		return string(b[:max(n, len(prefix)+1)])
	}
}
