package robots_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
