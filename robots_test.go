package robots_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// TestGoogleEmptyAgentIsAnAgent checks that the rules cached for the '*'
// groups are never handed to the empty agent, which names "User-agent:"
// lines without a token.
func TestGoogleEmptyAgentIsAnAgent(t *testing.T) {
	r := robots.Parse([]byte("User-agent: *\nAllow: /\n\nUser-agent:\nDisallow: /\n"))
	assert.True(t, r.Agent("otherbot").Allowed("https://example.com/"), "the '*' group allows")
	assert.False(t, r.Agent("").Allowed("https://example.com/"), "the empty agent has its own group")
	assert.True(t, r.Agent("otherbot").Allowed("https://example.com/"))
}

// TestAgentsShareCompiledRules checks that resolving the same agent twice,
// in any case, yields the same verdicts from the cached rule set.
func TestAgentsShareCompiledRules(t *testing.T) {
	r := robots.Parse([]byte("User-agent: FooBot\nDisallow: /x\n"))
	assert.False(t, r.Agent("foobot").Allowed("/x"))
	assert.False(t, r.Agent("FOOBOT").Allowed("/x"))
	assert.True(t, r.Agent("bar").Allowed("/x"))
}

// TestAgentChecksDoNotAllocate pins the hot path: once the states a URL
// needs exist, checking it allocates nothing, whichever entry point is used.
func TestAgentChecksDoNotAllocate(t *testing.T) {
	r := robots.Parse([]byte("User-agent: *\nDisallow: /*.pdf$\nDisallow: /private/\nAllow: /private/ok\nDisallow: /*?sessionid=\n"))
	bot := r.Agent("Googlebot")
	u, err := url.Parse("https://example.com/caf%C3%A9/private/x.pdf?a=b")
	require.NoError(t, err)
	checks := map[string]func(){
		"Allowed":        func() { bot.Allowed("https://example.com/private/doc.pdf") },
		"Allowed ?query": func() { bot.Allowed("https://example.com?sessionid=1") },
		"AllowedPath":    func() { bot.AllowedPath("/private/ok/x?sessionid=2") },
		"AllowedURL":     func() { bot.AllowedURL(u) },
		"Decide":         func() { bot.Decide("https://example.com/private/ok") },
	}
	for name, check := range checks {
		check()
		assert.Equal(t, 0.0, testing.AllocsPerRun(100, check), name)
	}
}
