package robots_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/hostile"
)

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		name, file, agent   string
		opts                []robots.Option
		class               robots.Class
		allowed, disallowed string
	}{
		{"empty file", "", "Googlebot", nil, robots.ClassNone, "/", ""},
		{"disallow all", "User-agent: *\nDisallow: /\n", "Googlebot", nil, robots.ClassAll, "", "/"},
		{"disallow all but the home page", "User-agent: *\nDisallow: /\nAllow: /$\n", "Googlebot", nil, robots.ClassSome, "/", "/a"},
		{"a directory", "User-agent: *\nDisallow: /private/\n", "Googlebot", nil, robots.ClassSome, "/", "/private/"},
		{"another crawler's group", "User-agent: GPTBot\nDisallow: /\n", "Googlebot", nil, robots.ClassNone, "/", ""},
		{"a named group", "User-agent: GPTBot\nDisallow: /\n", "GPTBot", nil, robots.ClassAll, "", "/"},
		{"disallow with a star", "User-agent: *\nDisallow: /*\n", "x", nil, robots.ClassAll, "", "/"},
		{"an empty disallow", "User-agent: *\nDisallow:\n", "x", nil, robots.ClassNone, "/", ""},
		{"index.html allows its directory", "User-agent: *\nDisallow: /\nAllow: /index.html\n", "x", nil, robots.ClassSome, "/", "/a"},
		{"RFC mode allows /robots.txt", "User-agent: *\nDisallow: /\n", "x", []robots.Option{robots.WithMode(robots.RFC)}, robots.ClassSome, "/robots.txt", "/"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := robots.Parse([]byte(tt.file), tt.opts...).Agent(tt.agent)
			class, allowed, disallowed := a.Classify()
			assert.Equal(t, tt.class, class)
			assert.Equal(t, tt.allowed, allowed)
			assert.Equal(t, tt.disallowed, disallowed)
		})
	}
}

func TestClassifyPolicies(t *testing.T) {
	class, allowed, disallowed := robots.FromStatus(503, nil).Agent("x").Classify()
	assert.Equal(t, []any{robots.ClassAll, "", "/"}, []any{class, allowed, disallowed})
	class, allowed, disallowed = robots.FromStatus(404, nil).Agent("x").Classify()
	assert.Equal(t, []any{robots.ClassNone, "/", ""}, []any{class, allowed, disallowed})
	assert.Equal(t, "undecided none some all", fmt.Sprint(robots.ClassUndecided, robots.ClassNone, robots.ClassSome, robots.ClassAll))
}

// BenchmarkClassifyCorpus parses every licensed real file and classifies
// it for three crawlers, as a survey does: the time is per corpus, the
// parse included (a survey's files are each read once).
func BenchmarkClassifyCorpus(b *testing.B) {
	dir := filepath.Join("testdata", "corpus", "files")
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var bodies [][]byte
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, body)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range bodies {
			r := robots.Parse(body)
			for _, agent := range []string{"Googlebot", "GPTBot", "CCBot"} {
				r.Agent(agent).Classify()
			}
		}
	}
}

// TestClassifyHostileStars: hostile.LongStars, the longest lines of many
// stars the size limit holds, all Allow after a long Disallow, is
// classified with both witnesses, and not cut.
func TestClassifyHostileStars(t *testing.T) {
	r := robots.Parse(hostile.LongStars().Body)
	require.False(t, r.Truncated())
	class, allowed, disallowed := r.Agent("x").Classify()
	assert.Equal(t, []any{robots.ClassSome, "/", "/" + strings.Repeat("z", 9000)}, []any{class, allowed, disallowed})
}

// BenchmarkClassifyHostileStars is the time to classify hostile.LongStars,
// parsed fresh each time as a survey reads it: its patterns' own paths
// are checked by Reference only while that costs less than building the
// automaton (automaton.referenceBudget).
func BenchmarkClassifyHostileStars(b *testing.B) {
	body := hostile.LongStars().Body
	for b.Loop() {
		robots.Parse(body).Agent("x").Classify()
	}
}

// rulePath is the path a rule's pattern suggests: its stars matching
// nothing, its '$' dropped, one '/' first.
func rulePath(pattern string) string {
	return "/" + strings.TrimLeft(strings.ReplaceAll(strings.TrimSuffix(pattern, "$"), "*", ""), "/")
}

// TestClassifyLicensedCorpus classifies every licensed real file for a
// few crawlers: each class is decided, each witness gets its verdict
// (Classify confirms it with Decide; this checks again with Allowed), and
// the class agrees with every URL the file's own rules suggest. It logs
// how often checking "/" alone, a common shortcut, would class otherwise.
func TestClassifyLicensedCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "corpus", "files")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	counts := map[robots.Class]int{}
	shortcutWrong := 0
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		r := robots.Parse(body)
		for _, agent := range []string{"Googlebot", "GPTBot", "CCBot"} {
			a := r.Agent(agent)
			class, allowed, disallowed := a.Classify()
			counts[class]++
			require.NotEqual(t, robots.ClassUndecided, class, "%s %s", e.Name(), agent)
			if allowed != "" {
				require.True(t, a.AllowedPath(allowed), "%s %s: %q", e.Name(), agent, allowed)
			}
			if disallowed != "" {
				require.False(t, a.AllowedPath(disallowed), "%s %s: %q", e.Name(), agent, disallowed)
			}
			for _, g := range r.Groups() {
				for _, rule := range g.Rules {
					u := rulePath(rule.Pattern)
					switch v := a.AllowedPath(u); {
					case class == robots.ClassNone:
						require.True(t, v, "%s %s: %q is disallowed in a file classed none", e.Name(), agent, u)
					case class == robots.ClassAll:
						require.False(t, v, "%s %s: %q is allowed in a file classed all", e.Name(), agent, u)
					}
				}
			}
			shortcut := robots.ClassAll // "/" disallowed, read as "all disallowed"
			if a.AllowedPath("/") {
				shortcut = robots.ClassNone
			}
			require.Equal(t, a.AllowedPath("/"), allowed == "/", "%s %s: the witness of the verdict of / is /", e.Name(), agent)
			require.Equal(t, !a.AllowedPath("/"), disallowed == "/", "%s %s: the witness of the verdict of / is /", e.Name(), agent)
			if shortcut != class {
				shortcutWrong++
			}
		}
	}
	t.Logf("%d files x 3 crawlers: %d none, %d some, %d all; checking \"/\" alone classes %d of them otherwise",
		len(entries), counts[robots.ClassNone], counts[robots.ClassSome], counts[robots.ClassAll], shortcutWrong)
}

// FuzzClassify: for any file and agent, in both modes, Agent.Classify's
// class is what its witnesses say (some: both; none: an allowed path
// only; all: a disallowed path only), each witness gets its verdict from
// AllowedPath, "/" is the witness of its own verdict, and every path the
// file's rules suggest gets the verdict a class of none or all says.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{
		"User-agent: *\nDisallow: /\nAllow: /$\n",
		"User-agent: *\nDisallow: /*\xa9\nAllow: /\xa9$\n",
		"User-agent: a\nDisallow: /x*y$\nAllow: /x\n\nUser-agent: *\nDisallow: /\n",
		"User-agent: *\nDisallow: /%41\nAllow: /A\nDisallow: /*.php$\n",
	} {
		f.Add([]byte(s), "a")
	}
	f.Fuzz(func(t *testing.T, body []byte, agent string) {
		for _, mode := range []robots.Mode{robots.Google, robots.RFC} {
			r := robots.Parse(body, robots.WithMode(mode))
			a := r.Agent(agent)
			class, allowed, disallowed := a.Classify()
			root := a.AllowedPath("/")
			require.Equal(t, root, allowed == "/", "%v: the witness of the verdict of / is /", mode)
			require.Equal(t, !root, disallowed == "/", "%v: the witness of the verdict of / is /", mode)
			if allowed != "" {
				require.True(t, a.AllowedPath(allowed), "%v: %q", mode, allowed)
			}
			if disallowed != "" {
				require.False(t, a.AllowedPath(disallowed), "%v: %q", mode, disallowed)
			}
			switch class {
			case robots.ClassSome:
				require.True(t, allowed != "" && disallowed != "", "%v", mode)
			case robots.ClassNone:
				require.True(t, allowed != "" && disallowed == "", "%v", mode)
			case robots.ClassAll:
				require.True(t, allowed == "" && disallowed != "", "%v", mode)
			}
			if class != robots.ClassNone && class != robots.ClassAll {
				continue
			}
			for _, g := range r.Groups() {
				for _, rule := range g.Rules {
					u := rulePath(rule.Pattern)
					if strings.ContainsAny(u, "#\x00") {
						continue // not a path Classify reads
					}
					require.Equal(t, class == robots.ClassNone, a.AllowedPath(u), "%v: %q in a file classed %v", mode, u, class)
				}
			}
		}
	})
}
