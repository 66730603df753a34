package compile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/automaton"
)

// groupShape renders groups as "agents:rules" strings for compact asserts,
// e.g. "a,b:+/x,-/y".
func groupShape(f *File) []string {
	var out []string
	for _, g := range f.Groups() {
		var agents, rules []string
		for _, a := range g.Agents {
			if a.Global {
				agents = append(agents, "*")
			} else {
				agents = append(agents, a.Token)
			}
		}
		for _, r := range g.Rules {
			sign := "-"
			if r.Allow {
				sign = "+"
			}
			rules = append(rules, sign+r.Pattern)
		}
		out = append(out, strings.Join(agents, ",")+":"+strings.Join(rules, ","))
	}
	return out
}

func TestRFCGroups(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"consecutive agents share rules", "User-agent: a\nUser-agent: b\nDisallow: /x\n", []string{"a,b:-/x"}},
		{"agent after a rule starts a group", "User-agent: a\nDisallow: /x\nUser-agent: b\nAllow: /y\n", []string{"a:-/x", "b:+/y"}},
		{"blank lines and comments do not split", "User-agent: a\n\n# c\nUser-agent: b\nDisallow: /x\n", []string{"a,b:-/x"}},
		{"sitemap does not split", "User-agent: a\nSitemap: /s\nUser-agent: b\nDisallow: /x\n", []string{"a,b:-/x"}},
		{"unknown does not split", "User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /x\n", []string{"a,b:-/x"}},
		{"rules before any agent are dropped", "Disallow: /x\nUser-agent: a\nAllow: /y\n", []string{"a:+/y"}},
		{"empty rule still ends the agent run", "User-agent: a\nDisallow:\nUser-agent: b\n", []string{"a:-", "b:"}},
		{"global", "User-agent: *\nDisallow: /\n", []string{"*:-/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, mode := range []Mode{Google, RFC} {
				assert.Equal(t, tt.want, groupShape(Parse([]byte(tt.body), Options{Mode: mode})), mode)
			}
		})
	}
}

func TestRFCResolveMergesGroups(t *testing.T) {
	f := Parse([]byte("User-agent: a\nDisallow: /1\nUser-agent: *\nDisallow: /2\nUser-agent: A\nDisallow: /3\nUser-agent: *\nDisallow: /4\nUser-agent: e\n"), Options{})
	tests := []struct {
		agents   []string
		groups   []int32
		specific bool
	}{
		{[]string{"a"}, []int32{0, 2}, true},
		{[]string{"b"}, []int32{1, 3}, false},
		{[]string{"b", "A"}, []int32{0, 2}, true},
		{[]string{"e"}, []int32{4}, true},
		{nil, []int32{1, 3}, false},
	}
	for _, tt := range tests {
		sel := f.Resolve(tt.agents...)
		assert.Equal(t, tt.groups, sel.Groups, "%v", tt.agents)
		assert.Equal(t, tt.specific, sel.Specific, "%v", tt.agents)
	}
}

func TestGoogleSizeLimit(t *testing.T) {
	assert.Equal(t, 512000, DefaultMaxBytes)
	pad := strings.Repeat("#", DefaultMaxBytes-len("User-agent: *\n"))
	body := "User-agent: *\n" + pad + "\nDisallow: /x\n"
	f := Parse([]byte(body), Options{})
	require.True(t, f.Truncated)
	assert.Empty(t, f.Groups()[0].Rules, "a rule after the limit is ignored")

	f = Parse([]byte(body), Options{MaxBytes: -1})
	assert.False(t, f.Truncated)
	assert.Len(t, f.Groups()[0].Rules, 1)
}

func TestGoogleIndexDirectory(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"/a/index.html", "/a/$", true},
		{"/a/index.htm", "/a/$", true},
		{"/index.html?x", "/$", true},
		{"/a/index.php", "", false},
		{"/a/Index.html", "", false},
		{"/index.html/b", "", false},
		{"index.html", "", false},
	}
	for _, tt := range tests {
		got, ok := indexDirectory(tt.in)
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}

func TestParseExtrasBelongToTheirGroup(t *testing.T) {
	f := Parse([]byte("Crawl-delay: 1\nUser-agent: a\nCrawl-delay: 2\nDisallow: /x\nHost: h\nUser-agent: b\nRequest-rate: 1/5\n"), Options{})
	require.Len(t, f.Groups(), 2)
	assert.Equal(t, []Directive{{3, "Crawl-delay", "2"}, {5, "Host", "h"}}, f.Groups()[0].Extras)
	assert.Equal(t, []Directive{{7, "Request-rate", "1/5"}}, f.Groups()[1].Extras)
	assert.Len(t, f.Others(), 4, "every unknown directive stays in Others, the one before any group included")
}

func TestSamePrefixByteNeverRulesOutAMatch(t *testing.T) {
	exprs := []string{"/", "/$", "/a", "/a$", "*", "*a", "/*", "$", "/$x", "a", "//", "/ab*$", "$$"}
	paths := []string{"", "/", "/a", "/ab", "a", "$", "/$", "/$x", "//", "/b"}
	for _, e := range exprs {
		for _, p := range paths {
			if automaton.Match(e, p) {
				assert.True(t, samePrefixByte(e, p), "%q matches %q", e, p)
			}
		}
	}
}

// TestBuilderKeepBytes checks that a pooled builder keeps scratch of up to
// builderKeepBytes for the next parse, emptied, and drops bigger scratch.
func TestBuilderKeepBytes(t *testing.T) {
	small := make([]ruleRec, 3, builderKeepBytes/ruleRecBytes)
	kept := reuse(small)
	assert.Empty(t, kept)
	assert.Equal(t, cap(small), cap(kept))
	assert.Nil(t, reuse(make([]ruleRec, 0, builderKeepBytes/ruleRecBytes+1)))
	assert.NotNil(t, reuse(make([]byte, 0, builderKeepBytes)))
	assert.Nil(t, reuse(make([]byte, 0, builderKeepBytes+1)))

	n := names{slots: make([]int32, builderKeepBytes/4)}
	n.reuse()
	assert.Len(t, n.slots, builderKeepBytes/4)
	n = names{slots: make([]int32, builderKeepBytes/4+1)}
	n.reuse()
	assert.Nil(t, n.slots)
}

// TestRuleRecordLines: a rule's line is recorded as the gap from the rule
// before it, in bits of its record up to farGap, and in File.farLines from
// there; every rule keeps its line, across gaps on either side of farGap
// and across lines the parser reads on both paths (quickLines and not).
func TestRuleRecordLines(t *testing.T) {
	gaps := []int{1, 2, farGap - 1, farGap, farGap + 1, 3, 2 * farGap, 1}
	var body strings.Builder
	body.WriteString("user-agent: *\n")
	line, want := 1, []int{}
	for i, gap := range gaps {
		body.WriteString(strings.Repeat("\n", gap-1))
		line += gap
		if i%2 == 0 {
			fmt.Fprintf(&body, "disallow: /r%d\n", i)
		} else {
			fmt.Fprintf(&body, "Disallow : /r%d # not the quick path\n", i)
		}
		want = append(want, line)
	}
	f := Parse([]byte(body.String()), Options{MaxBytes: -1})
	require.Len(t, f.Groups(), 1)
	var got []int
	for i, r := range f.Groups()[0].Rules {
		assert.Equal(t, fmt.Sprintf("/r%d", i), r.Value)
		got = append(got, r.Line)
	}
	assert.Equal(t, want, got)
	require.NotNil(t, f.rare)
	assert.Len(t, f.rare.farLines, 3, "the gaps of farGap and more")
}

// TestRuleRecordSize: a value as long as a line can be (MaxLineBytes less
// its key) keeps every byte in its record's ruleSizeBits.
func TestRuleRecordSize(t *testing.T) {
	key := "disallow:"
	value := "/" + strings.Repeat("a", MaxLineBytes-len(key)-1)
	body := "user-agent: *\n" + key + value + "\nallow: /b\n"
	f := Parse([]byte(body), Options{})
	rules := f.Groups()[0].Rules
	require.Len(t, rules, 2)
	assert.Equal(t, value, rules[0].Value)
	assert.Equal(t, 2, rules[0].Line)
	assert.Equal(t, "/b", rules[1].Value)
	assert.True(t, rules[1].Allow)
	assert.Equal(t, 3, rules[1].Line)
}

// TestRuleRecFields checks that newRuleRec's fields read back unchanged,
// each at its largest value beside the others at theirs and at zero.
func TestRuleRecFields(t *testing.T) {
	for _, size := range []int{0, 1, MaxLineBytes} {
		for _, gap := range []uint32{0, 1, farGap} {
			for _, allow := range []bool{false, true} {
				for _, escaped := range []bool{false, true} {
					r := newRuleRec(7, size, allow, escaped, gap)
					assert.Equal(t, uint32(7), r.off)
					assert.Equal(t, uint32(size), r.size(), "size %d gap %d", size, gap)
					assert.Equal(t, gap, r.gap(), "size %d gap %d", size, gap)
					assert.Equal(t, allow, r.allow())
					assert.Equal(t, escaped, r.isEscaped())
				}
			}
		}
	}
}
