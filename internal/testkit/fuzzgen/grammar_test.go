package fuzzgen_test

import (
	"flag"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/testkit/fuzzgen"
)

// seeds is how many generated files each property is checked on; go test
// ./internal/fuzzgen -seeds=100000 checks more.
var seeds = flag.Int("seeds", 2000, "number of generated robots.txt files per property")

var modes = []compile.Mode{compile.Google, compile.RFC}

// generated calls fn with each generated file, its seed and a random source
// for the property's own choices.
func generated(t *testing.T, fn func(t *testing.T, seed uint64, r *rand.Rand, f *fuzzgen.File)) {
	t.Helper()
	for seed := range uint64(*seeds) {
		r := rand.New(rand.NewPCG(seed, 0x9309))
		f := fuzzgen.Generate(r, fuzzgen.DefaultConfig())
		fn(t, seed, r, f)
		if t.Failed() {
			t.Fatalf("seed %d, body:\n%q", seed, f.Body)
		}
	}
}

func scan(body []byte, mode compile.Mode) ([]fuzzgen.Token, int) {
	var toks []fuzzgen.Token
	n := compile.Scan(string(body), mode, func(t compile.Token) { toks = append(toks, fuzzgen.TokenOf(t)) })
	return toks, n
}

// Every generated line is read with the field, key, value and line number
// it was written with, in both modes, and the reference reading agrees.
func TestGrammarLinesRecognised(t *testing.T) {
	generated(t, func(t *testing.T, _ uint64, _ *rand.Rand, f *fuzzgen.File) {
		want := f.Tokens()
		for _, m := range modes {
			got, n := scan(f.Body, m)
			assert.NoError(t, fuzzgen.SameTokens(got, want), "%v mode", m)
			assert.Equal(t, f.LineCount(), n, "%v mode: lines", m)
			ref, refN := fuzzgen.ReferenceScan(f.Body, m == compile.RFC)
			assert.NoError(t, fuzzgen.SameTokens(ref, want), "%v mode: reference", m)
			assert.Equal(t, f.LineCount(), refN, "%v mode: reference lines", m)
		}
	})
}

// Parsing a generated file gives the groups, rules, sitemaps and other
// lines it was built with.
func TestGrammarStructure(t *testing.T) {
	generated(t, func(t *testing.T, _ uint64, _ *rand.Rand, f *fuzzgen.File) {
		for _, m := range modes {
			p := compile.Parse(f.Body, compile.Options{Mode: m})
			assert.Equal(t, f.LineCount(), p.Lines, "%v mode", m)
			require.Len(t, p.Groups(), len(f.Groups), "%v mode: groups", m)
			for i, g := range f.Groups {
				got := p.Groups()[i]
				require.Len(t, got.Agents, len(g.Agents), "%v mode: group %d agents", m, i)
				require.Len(t, got.Rules, len(g.Rules), "%v mode: group %d rules", m, i)
				for j, a := range g.Agents {
					want := compile.AgentLine{Line: a.Line, Value: a.Value, Global: a.Value == "*"}
					if !want.Global {
						want.Token = a.Value // an identifier is its own product token
					}
					assert.Equal(t, want, got.Agents[j], "%v mode: group %d agent %d", m, i, j)
				}
				for j, r := range g.Rules {
					want := compile.Rule{Line: r.Line, Allow: r.Allow, Value: r.Value, Pattern: fuzzgen.EscapeOracle(r.Value)}
					assert.Equal(t, want, got.Rules[j], "%v mode: group %d rule %d", m, i, j)
				}
			}
			require.Len(t, p.Sitemaps(), len(f.Sitemaps), "%v mode: sitemaps", m)
			for i, l := range f.Sitemaps {
				assert.Equal(t, compile.Directive{Line: l.Num, Key: l.Key, Value: l.Value}, p.Sitemaps()[i], "%v mode", m)
			}
			require.Len(t, p.Others(), len(f.Others), "%v mode: others", m)
			for i, l := range f.Others {
				assert.Equal(t, compile.Directive{Line: l.Num, Key: l.Key, Value: l.Value}, p.Others()[i], "%v mode", m)
			}
		}
	})
}

// Printing the parsed groups and rules back as a robots.txt and parsing
// that gives the same groups and rules.
func TestGrammarRoundTrip(t *testing.T) {
	generated(t, func(t *testing.T, _ uint64, _ *rand.Rand, f *fuzzgen.File) {
		for _, m := range modes {
			p := compile.Parse(f.Body, compile.Options{Mode: m})
			out, ok := fuzzgen.Format(p)
			require.True(t, ok)
			back := compile.Parse(out, compile.Options{Mode: m})
			assert.NoError(t, fuzzgen.SameStructure(back, p), "%v mode, formatted:\n%s", m, out)
			again, _ := fuzzgen.Format(back)
			assert.Equal(t, string(out), string(again), "%v mode: formatting is stable", m)
		}
	})
}

// Every generated file passes the parse invariants, and deciding URLs
// taken from its own rules, for the agents it names and for one it does
// not, agrees with the brute-force oracle.
func TestGrammarVerdicts(t *testing.T) {
	generated(t, func(t *testing.T, _ uint64, r *rand.Rand, f *fuzzgen.File) {
		require.NoError(t, fuzzgen.CheckParse(f.Body))
		agents := []string{"NoSuchBot", ""}
		var urls []string
		for _, g := range f.Groups {
			for _, a := range g.Agents {
				agents = append(agents, a.Value, strings.ToUpper(a.Value))
			}
			for _, rule := range g.Rules {
				urls = append(urls, urlsFor(r, rule.Value)...)
			}
		}
		urls = append(urls, "/", "https://example.com/robots.txt", "http://example.com/index.html")
		require.NoError(t, fuzzgen.CheckDecisions(f.Body, sample(r, agents, 4), sample(r, urls, 12)))
	})
}

// sample returns at most n of list, chosen at random.
func sample(r *rand.Rand, list []string, n int) []string {
	r.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	return list[:min(n, len(list))]
}

// urlsFor derives from a rule value a few URLs near what it matches.
func urlsFor(r *rand.Rand, v string) []string {
	fill := strings.NewReplacer("*", "ab", "$", "")
	exact := fill.Replace(v)
	out := []string{
		"https://example.com" + exact,
		"https://example.com" + exact + "x",
		"https://example.com" + strings.TrimSuffix(v, "$"),
	}
	if len(exact) > 1 {
		out = append(out, "https://example.com"+exact[:1+r.IntN(len(exact)-1)])
	}
	return out
}

// Each mutation takes a generated file out of the grammar in a known way:
// Google's reading and the strict RFC reading find exactly the directives
// the mutation says, and the reference reading agrees.
func TestGrammarMutations(t *testing.T) {
	names := make([]string, 0, len(fuzzgen.Mutations))
	for name := range fuzzgen.Mutations {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			mutate := fuzzgen.Mutations[name]
			applied := 0
			generated(t, func(t *testing.T, _ uint64, r *rand.Rand, f *fuzzgen.File) {
				mu, ok := mutate(r, f)
				if !ok {
					return
				}
				applied++
				for _, m := range modes {
					want := mu.Google
					if m == compile.RFC {
						want = mu.RFC
					}
					got, n := scan(mu.Body, m)
					assert.NoError(t, fuzzgen.SameTokens(got, want), "%v mode", m)
					assert.Equal(t, mu.Lines, n, "%v mode: lines", m)
					ref, _ := fuzzgen.ReferenceScan(mu.Body, m == compile.RFC)
					assert.NoError(t, fuzzgen.SameTokens(ref, want), "%v mode: reference", m)
				}
				assert.NoError(t, fuzzgen.CheckParse(mu.Body), "%q", mu.Body)
			})
			if *seeds >= 100 {
				assert.Greater(t, applied, *seeds/4, "the mutation applies to too few files")
			}
		})
	}
}

// Random byte-level damage never panics, and the parser's reading of the
// result is the reference's.
func TestGrammarNoise(t *testing.T) {
	generated(t, func(t *testing.T, _ uint64, r *rand.Rand, f *fuzzgen.File) {
		body := fuzzgen.Noise(r, f.Body)
		require.NoError(t, fuzzgen.CheckParse(body), "%q", body)
		require.NoError(t, fuzzgen.CheckAllowed(body, "FooBot", "https://example.com/a/b?c"), "%q", body)
	})
}

// The lenient rules, one example each, in both modes.
func TestGrammarLenientRules(t *testing.T) {
	type tok = fuzzgen.Token
	tests := []struct {
		name        string
		body        string
		google, rfc []tok
	}{
		{"typo accepted by Google only", "Useragent: a\nDissallow: /x\nSite-map: http://s/\n",
			[]tok{{1, fuzzgen.UserAgent, "Useragent", "a"}, {2, fuzzgen.Disallow, "Dissallow", "/x"}, {3, fuzzgen.Sitemap, "Site-map", "http://s/"}},
			[]tok{{1, fuzzgen.Unknown, "Useragent", "a"}, {2, fuzzgen.Unknown, "Dissallow", "/x"}, {3, fuzzgen.Unknown, "Site-map", "http://s/"}}},
		{"prefix accepted by Google only", "User-agents: a\nDisallowed: /x\n",
			[]tok{{1, fuzzgen.UserAgent, "User-agents", "a"}, {2, fuzzgen.Disallow, "Disallowed", "/x"}},
			[]tok{{1, fuzzgen.Unknown, "User-agents", "a"}, {2, fuzzgen.Unknown, "Disallowed", "/x"}}},
		{"missing colon, two words: Google only", "User-agent a\nDisallow\t/x\n",
			[]tok{{1, fuzzgen.UserAgent, "User-agent", "a"}, {2, fuzzgen.Disallow, "Disallow", "/x"}},
			nil},
		{"missing colon, three words: ignored", "User-agent a b\nDisallow /x /y\n", nil, nil},
		{"missing colon, one word: ignored", "Disallow\n", nil, nil},
		{"colon in the value of a colon-less line splits there", "Disallow /a:b\n",
			[]tok{{1, fuzzgen.Disallow, "Disallow /a", "b"}},
			[]tok{{1, fuzzgen.Unknown, "Disallow /a", "b"}}},
		{"U+2010 hyphen: unknown", "User\u2010agent: a\n",
			[]tok{{1, fuzzgen.Unknown, "User\u2010agent", "a"}}, []tok{{1, fuzzgen.Unknown, "User\u2010agent", "a"}}},
		{"BOM skipped", "\xEF\xBB\xBFUser-agent: a\n",
			[]tok{{1, fuzzgen.UserAgent, "User-agent", "a"}}, []tok{{1, fuzzgen.UserAgent, "User-agent", "a"}}},
		{"partial BOM skipped", "\xEF\xBBUser-agent: a\n",
			[]tok{{1, fuzzgen.UserAgent, "User-agent", "a"}}, []tok{{1, fuzzgen.UserAgent, "User-agent", "a"}}},
		{"NUL ends the line", "User-agent: a\x00b\n\x00Disallow: /\n",
			[]tok{{1, fuzzgen.UserAgent, "User-agent", "a"}}, []tok{{1, fuzzgen.UserAgent, "User-agent", "a"}}},
		{"CR only", "User-agent: a\rDisallow: /x\r\rAllow: /y",
			[]tok{{1, fuzzgen.UserAgent, "User-agent", "a"}, {2, fuzzgen.Disallow, "Disallow", "/x"}, {4, fuzzgen.Allow, "Allow", "/y"}},
			[]tok{{1, fuzzgen.UserAgent, "User-agent", "a"}, {2, fuzzgen.Disallow, "Disallow", "/x"}, {4, fuzzgen.Allow, "Allow", "/y"}}},
	}
	for _, tt := range tests {
		for _, m := range modes {
			want := tt.google
			if m == compile.RFC {
				want = tt.rfc
			}
			got, _ := scan([]byte(tt.body), m)
			assert.NoError(t, fuzzgen.SameTokens(got, want), "%s, %v mode", tt.name, m)
			ref, _ := fuzzgen.ReferenceScan([]byte(tt.body), m == compile.RFC)
			assert.NoError(t, fuzzgen.SameTokens(ref, want), "%s, %v mode: reference", tt.name, m)
		}
	}
}

// The generator writes every production: a run of seeds holds each field,
// each line break, comments, empty patterns, multi-byte characters and
// merged rule-less groups.
func TestGrammarCoverage(t *testing.T) {
	seen := map[string]bool{}
	generated(t, func(t *testing.T, _ uint64, _ *rand.Rand, f *fuzzgen.File) {
		for _, l := range f.Lines {
			seen["field "+l.Field.String()] = true
			seen["nl "+l.NL] = true
			if strings.Contains(l.Text, "#") {
				seen["comment"] = true
			}
			if strings.ContainsAny(l.Text, "\t") {
				seen["tab"] = true
			}
			if (l.Field == fuzzgen.Allow || l.Field == fuzzgen.Disallow) && l.Value == "" {
				seen["empty pattern"] = true
			}
			for _, c := range []byte(l.Value) {
				switch {
				case c >= 0xF0:
					seen["4-byte"] = true
				case c >= 0xE0:
					seen["3-byte"] = true
				case c >= 0xC2:
					seen["2-byte"] = true
				case c == 0x7F:
					seen["DEL"] = true
				}
			}
		}
		for _, g := range f.Groups {
			if len(g.Agents) > 1 {
				seen["several agents"] = true
			}
			if len(g.Rules) == 0 {
				seen["rule-less group"] = true
			}
		}
	})
	for _, want := range []string{"field blank", "field user-agent", "field allow", "field disallow", "field sitemap",
		"field unknown", "nl \n", "nl \r", "nl \r\n", "comment", "tab", "empty pattern", "2-byte", "3-byte", "4-byte",
		"DEL", "several agents", "rule-less group"} {
		assert.True(t, seen[want], "no generated file has %s", want)
	}
}
