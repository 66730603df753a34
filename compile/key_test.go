package compile

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGoogleClassifyKey(t *testing.T) {
	tests := []struct {
		key    string
		google Kind
		rfc    Kind
		typo   bool
	}{
		{"user-agent", UserAgent, UserAgent, false},
		{"USER-AGENT", UserAgent, UserAgent, false},
		{"User-agents", UserAgent, Unknown, false},
		{"useragent", UserAgent, Unknown, true},
		{"user agent", UserAgent, Unknown, true},
		{"allow", Allow, Allow, false},
		{"Allowed", Allow, Unknown, false},
		{"disallow", Disallow, Disallow, false},
		{"DisAllow-all", Disallow, Unknown, false},
		{"dissallow", Disallow, Unknown, true},
		{"dissalow", Disallow, Unknown, true},
		{"disalow", Disallow, Unknown, true},
		{"diasllow", Disallow, Unknown, true},
		{"disallaw", Disallow, Unknown, true},
		{"sitemap", Sitemap, Sitemap, false},
		{"site-map", Sitemap, Unknown, true},
		{"crawl-delay", Unknown, Unknown, false},
		{"\xEF\xBB\xBFallow", Unknown, Unknown, false},
		{"all", Unknown, Unknown, false},
	}
	for _, tt := range tests {
		kind, _, typo := ClassifyKey(tt.key, Google)
		assert.Equal(t, tt.google, kind, "google %q", tt.key)
		assert.Equal(t, tt.typo, typo, "typo %q", tt.key)
		kind, _, _ = ClassifyKey(tt.key, RFC)
		assert.Equal(t, tt.rfc, kind, "rfc %q", tt.key)
	}
}

func TestGoogleAgentTokens(t *testing.T) {
	tests := []struct {
		value, token string
		global       bool // in Google mode
		globalRFC    bool
	}{
		{"Googlebot", "Googlebot", false, false},
		{"Googlebot/2.1", "Googlebot", false, false},
		{"Foo Bar", "Foo", false, false},
		{"foo_bar-baz1", "foo_bar-baz", false, false},
		{"ツbot", "", false, false},
		{"*", "", true, true},
		{"* foo", "", true, false},
		{"*\tfoo", "", true, false},
		{"*foo", "", false, false},
		{"", "", false, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.token, ExtractAgent(tt.value), "%q", tt.value)
		assert.Equal(t, tt.global, IsGlobalAgent(tt.value, Google), "google %q", tt.value)
		assert.Equal(t, tt.globalRFC, IsGlobalAgent(tt.value, RFC), "rfc %q", tt.value)
	}
	assert.Equal(t, "googlebot-image", FoldAgent("GoogleBot-Image"))
	assert.Equal(t, "ツ", FoldAgent("ツ"), "only ASCII folds")
}
