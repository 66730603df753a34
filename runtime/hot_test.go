package runtime

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots/compile"
)

// TestMatcherAllowedRooted checks that AllowedRooted of the part of a URL
// from its path on is AllowedPath of it up to its first '#', in both
// dialects, cold and compiled: the compiled verbatim check walks the part
// in place and must stop at the '#' itself, even where a rule matches the
// path only at its end ('$') or only with more after it.
func TestMatcherAllowedRooted(t *testing.T) {
	const body = "User-agent: *\nDisallow: /$\nDisallow: /a$\nDisallow: /d\nAllow: /d$\nDisallow: /q?$\nDisallow: /*x\nDisallow: /%62\n"
	rests := []string{
		"/a", "/a#", "/a#x", "/d#", "/d#/e", "/q?#", "//a#a", "/#/a", "/a?#", "/%23x", "/y#x", "/b", "/%62#",
		"/robots.txt", "/robots.txt#x", "", "#", "a", "?q#x", ";p", "a$#", "x/a",
	}
	for _, mode := range []compile.Mode{compile.Google, compile.RFC} {
		for _, compiled := range []bool{false, true} {
			m := matcher(body, mode)
			if compiled {
				m.Rules().Set()
			}
			for _, rest := range rests {
				path, _, _ := strings.Cut(rest, "#")
				want := matcher(body, mode).AllowedPath(path)
				assert.Equal(t, want, m.AllowedRooted(rest), "%v, compiled %v: %q", mode, compiled, rest)
			}
			if mode == compile.Google { // RFC mode normalises paths, which only the automaton does
				assert.Equal(t, compiled, m.Rules().Compiled(), "a Google check compiles nothing before HotAfter")
			}
		}
	}
}

// TestMatcherRulesAreNewMatchers checks that Rules returns the rule set a
// matcher was made of, and that its Verbatim is its dialect's, which the
// checks read from it.
func TestMatcherRulesAreNewMatchers(t *testing.T) {
	assert.Nil(t, Matcher{}.Rules())
	for _, mode := range []compile.Mode{compile.Google, compile.RFC} {
		m := matcher("User-agent: *\nDisallow: /a\n", mode)
		assert.Equal(t, mode.Dialect().Verbatim(), m.Rules().Verbatim(), "%v", mode)
		assert.Same(t, m.Rules(), NewMatcher(m.Rules()).Rules(), "%v", mode)
	}
}
