package compile

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestKindOfAgreesWithClassifyKey checks the word-at-a-time recognition of
// the canonical spellings against ClassifyKey on every key shape near them.
func TestKindOfAgreesWithClassifyKey(t *testing.T) {
	keys := []string{"d", "a", "u", "s", "x", "-", "Disallow", "DISALLOW", "disallowed", "Disallo", "disalloW", "Disallaw",
		"Allow", "allowed", "allo", "ALLOW", "User-agent", "USER-AGENT", "user-agents", "user-agen", "user_agent", "user\ragent",
		"useragent", "user agent", "Sitemap", "sitemaps", "SITEMAP", "sitema", "site-map", "dissallow", "disalow", "diasllow",
		"Dis\x00llow", "D\xc9sallow", "Allow\x00", "user-agent\x00x", "sItEmAp-x", "\x04isallow", "Disallow\x80"}
	for _, k := range keys {
		for _, m := range []Mode{Google, RFC} {
			want, _, _ := ClassifyKey(k, m)
			assert.Equal(t, want, kindOf(k, m.Dialect().ExactKeys), "%q in %v mode", k, m)
		}
	}
	for c := range 256 {
		for _, base := range []string{"disallow", "allow", "user-agent", "sitemap"} {
			for i := range len(base) {
				k := base[:i] + string(byte(c)) + base[i+1:]
				for _, m := range []Mode{Google, RFC} {
					want, _, _ := ClassifyKey(k, m)
					assert.Equal(t, want, kindOf(k, m.Dialect().ExactKeys), "%q in %v mode", k, m)
				}
			}
		}
	}
}

// TestEveryKindIsRecorded checks that both paths of the parser file a line
// of every kind where it belongs. The switches on Kind (builder.add,
// quickLines) have no default: a kind added to fields and not to them
// leaves its line unrecorded, or this test without a place for it, and
// fails here either way.
func TestEveryKindIsRecorded(t *testing.T) {
	// place returns where f filed the line after the user-agent line.
	place := func(f *File) string {
		switch {
		case len(f.agents) == 2:
			return "agent"
		case len(f.rules) == 1 && f.rules[0].allow():
			return "allow"
		case len(f.rules) == 1:
			return "disallow"
		case len(f.sitemapRecs()) == 1:
			return "sitemap"
		case len(f.others) == 1:
			return "other"
		}
		return "nowhere"
	}
	want := map[Kind]string{Unknown: "other", UserAgent: "agent", Allow: "allow", Disallow: "disallow", Sitemap: "sitemap"}
	for kind := Unknown; kind < kindCount; kind++ {
		w, ok := want[kind]
		require.True(t, ok, "kind %d: the test does not say where its lines go", kind)
		key := fields[kind].name
		if kind == Unknown {
			key = "crawl-delay"
		}
		for _, k := range []string{key, strings.ToUpper(key)} {
			body := "user-agent: a\n" + k + ": /v\n"
			for _, quick := range []bool{true, false} {
				assert.Equal(t, w, place(parse([]byte(body), Options{}, quick)), "%q, quick path %v", k, quick)
			}
			if kind != Unknown {
				got, _, _ := ClassifyKey(k, RFC)
				assert.Equal(t, kind, got, "%q", k)
			}
		}
	}
}

// TestFieldsDeriveTheRecognisers checks the tables derived from fields:
// every spelling classifies as its kind, and the first letters of no two
// kinds meet.
func TestFieldsDeriveTheRecognisers(t *testing.T) {
	for kind := Unknown + 1; kind < kindCount; kind++ {
		f := fields[kind]
		for i, name := range append([]string{f.name}, f.typos...) {
			got, spelling, typo := ClassifyKey(name, Google)
			assert.Equal(t, kind, got, name)
			assert.Equal(t, name, spelling)
			assert.Equal(t, i > 0, typo, name)
			assert.Equal(t, kind, nameByLetter[name[0]%letterSlots].kind, name)
		}
		k, n := fieldPrefix(f.name + ":" + strings.Repeat(" ", wordBytes))
		assert.Equal(t, kind, k, f.name)
		assert.Equal(t, len(f.name), n)
		assert.Less(t, len(f.name), quickKeyRoom)
	}
}
