package runtime

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/automaton"
)

// fedMatches reports whether FeedURL feeds exactly want, by matching it
// against a set whose only pattern is want anchored at its end.
func fedMatches(u *url.URL, want string) bool {
	set := automaton.NewSet([]automaton.Pattern{{Expr: want + "$", Priority: 1}}, automaton.Options{})
	cur := set.Start()
	feedURL(&cur, u)
	_, ok := cur.Result()
	return ok
}

func TestFeedURLFeedsURLPath(t *testing.T) {
	for _, raw := range []string{
		"https://example.com/caf%C3%A9", "https://example.com/a%2Fb?x", "https://example.com/a b",
		"https://example.com/a!b(c)*'", "https://example.com", "https://example.com/x?", "https://example.com/%7E",
		"https://example.com/a;b=c?q=1&r=%20", "mailto:x/y",
	} {
		u, err := url.Parse(raw)
		require.NoError(t, err)
		want := u.EscapedPath()
		if want == "" {
			want = "/"
		}
		if u.Opaque != "" {
			want = Path(u.String())
		} else if u.RawQuery != "" || u.ForceQuery {
			want += "?" + u.RawQuery
		}
		assert.Equal(t, want, URLPath(u), raw)
		assert.True(t, fedMatches(u, want), "%s feeds %q", raw, want)
		assert.False(t, fedMatches(u, want+"x"), raw)
	}
}

func TestFeedURLDoesNotAllocate(t *testing.T) {
	u, err := url.Parse("https://example.com/caf%C3%A9/a%20b?q=1")
	require.NoError(t, err)
	set := automaton.NewSet([]automaton.Pattern{{Expr: "/caf*b?", Priority: 7}}, automaton.Options{})
	check := func() {
		cur := set.Start()
		feedURL(&cur, u)
		cur.Result()
	}
	check()
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, check))
}
