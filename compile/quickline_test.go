package compile

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/internal/word"
)

// parsed is what a parse records, for comparing two parses of one body.
type parsed struct {
	Lines                    int
	Body                     string
	Rules                    []ruleRec
	Agents                   []agentRec
	Groups                   []groupRec
	Sitemaps, Others         []dirRec
	Rare                     *rareRecs
	Names                    *names
	Global                   []int32
	Truncated                bool
	GroupShape, SitemapLines []string
}

func recordsOf(f *File) parsed {
	var sitemaps []string
	for _, d := range f.Sitemaps() {
		sitemaps = append(sitemaps, d.Key+"="+d.Value)
	}
	return parsed{
		Lines: f.Lines, Body: f.body, Rules: f.rules, Agents: f.agents, Groups: f.groups,
		Sitemaps: f.sitemapRecs(), Others: f.others, Rare: f.rare, Names: f.names,
		Global: f.global, Truncated: f.Truncated, GroupShape: groupShape(f), SitemapLines: sitemaps,
	}
}

// Pieces of lines: the quick path's shape and every way a line can leave
// it, at the key, the colon, the value and the break.
var (
	quickIndents = []string{"", "", " ", "\t", " \t ", "\v", "\f"}
	quickKeys    = []string{
		"Disallow", "disallow", "DISALLOW", "dISallOW", "Allow", "allow", "ALLOW",
		"User-agent", "user-agent", "USER-AGENT", "Sitemap", "sitemap", "SITEMAP",
		"disallowed", "allowed", "user-agents", "sitemaps", "Disalow", "useragent", "user agent",
		"user\ragent", "user\x0dagent", "Disallo", "Allo", "Sitemap\x1a", "allow\x1a", "disallow\x1a",
		"crawl-delay", "host", "", "#disallow", "d", "\xC4isallow",
	}
	quickColons = []string{":", ":", ":", " :", "\t:", "::", "", " "}
	quickValues = []string{
		"/x", "/x", "", " /a b ", "\t/p\t", "/caf\xc3\xa9", "/%aa", "/%41", "/x#c", "/x #c", "#c",
		"/x\x00y", "\x00", "*", "* bot", "*bot", "Googlebot/2.1", "/x\v", "/x\f ", "/*.pdf$",
		"http://example.com/sitemap.xml", "/x:y", "/" + strings.Repeat("a", 40),
	}
	quickBreaks = []string{"\n", "\n", "\r\n", "\r", "\n\r", "\r\r\n"}
)

// TestQuickLineAgreesWithGeneral parses bodies made of random line
// shapes (the quick path's and every way a line leaves it) with the quick
// path on and off, and requires the same records: the quick path may only
// decide how fast a line is read.
func TestQuickLineAgreesWithGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9309))
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	for i := range 5000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pick(quickIndents) + pick(quickKeys) + pick(quickColons) + " " + pick(quickValues))
			b.WriteString(pick(quickBreaks))
		}
		body := b.String()
		if i%3 == 0 { // end without a break, maybe inside a key
			body = body[:r.IntN(len(body)+1)]
		}
		requireQuickAgrees(t, body)
	}
}

// TestQuickLineLongLines holds the quick path to the general one on lines
// around MaxLineBytes, where the text is cut, and at the end of the body.
func TestQuickLineLongLines(t *testing.T) {
	for _, key := range []string{"Disallow: ", "User-agent: ", "  Allow:"} {
		for _, n := range []int{MaxLineBytes - 12, MaxLineBytes - 11, MaxLineBytes - 10, MaxLineBytes - 1, MaxLineBytes, MaxLineBytes + 1} {
			line := key + "/" + strings.Repeat("a", max(0, n-len(key)-1))
			for _, rest := range []string{"", "\n", "\r\nAllow: /b\n", "\nDisallow: /c"} {
				requireQuickAgrees(t, line+rest)
				requireQuickAgrees(t, "User-agent: *\n"+line+rest)
			}
		}
	}
}

// TestQuickLineColonAtTheCut holds the quick path to the general one when
// an indented key's colon falls at the last byte a line keeps, or just
// past it: the key without its colon is then no directive.
func TestQuickLineColonAtTheCut(t *testing.T) {
	for _, shift := range []int{-1, 0, 1, 2} {
		indent := strings.Repeat(" ", MaxLineBytes-len("Disallow")+shift)
		requireQuickAgrees(t, "User-agent: *\n"+indent+"Disallow:/x\nAllow: /y\n")
	}
}

func requireQuickAgrees(t *testing.T, body string) {
	t.Helper()
	for _, mode := range []Mode{Google, RFC} {
		quick := recordsOf(parse([]byte(body), Options{Mode: mode}, true))
		general := recordsOf(parse([]byte(body), Options{Mode: mode}, false))
		require.Equal(t, general, quick, "%v mode, body %q", mode, body)
	}
}

// TestQuickKey pins the keys the quick path takes: a canonical spelling in
// any case with its colon at once, and nothing else.
func TestQuickKey(t *testing.T) {
	tests := []struct {
		line string
		kind Kind
		n    int
	}{
		{"Disallow: /x\n", Disallow, 8},
		{"dIsAlLoW:/x\n", Disallow, 8},
		{"Allow: /x\n...", Allow, 5},
		{"user-AGENT: bot\n", UserAgent, 10},
		{"SiteMap: http://x/\n", Sitemap, 7},
		{"Disallowed: /x\n", Unknown, 0}, // Google reads it as a disallow, the general path does
		{"Disallow : /x\n", Unknown, 0},
		{"user\ragent: bot\n", Unknown, 0}, // a CR is no hyphen
		{"user_agent: bot\n", Unknown, 0},
		{"allow\x1a /x\n.....", Unknown, 0}, // 0x1a|0x20 is ':', but 0x1a is no colon
		{"Crawl-delay: 1\n", Unknown, 0},
		{"Allow:", Unknown, 0}, // too close to the end of the body to load a word
	}
	for _, tt := range tests {
		kind, n := quickKey(tt.line, 0, len(tt.line))
		require.Equal(t, tt.kind, kind, "%q", tt.line)
		require.Equal(t, tt.n, n, "%q", tt.line)
	}
}

// TestMarkedWords holds the quick path's word test to valueClass: a word
// is marked when one of its bytes is below '&' or outside ASCII, which
// every byte that has a class is, whatever the others are, and a word of
// other bytes is not.
func TestMarkedWords(t *testing.T) {
	plain := func(c byte) bool { return c >= '&' && c < 0x80 }
	for c := range 256 {
		if valueClass[c] != 0 {
			require.False(t, plain(byte(c)), "%#x has a class", c)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		var w [8]byte
		for k := range w {
			w[k] = byte(r.IntN(256))
			if r.IntN(4) > 0 { // mostly value bytes, so that marks are few
				w[k] = byte(0x26 + r.IntN(0x80-0x26))
			}
		}
		want := false
		for _, c := range w {
			want = want || !plain(c)
		}
		require.Equal(t, want, marked(word.Load(string(w[:]))), "% x", w)
	}
	for c := range 256 {
		for k := range 8 {
			w := []byte("/aaaaaaa")
			w[k] = byte(c)
			require.Equal(t, !plain(byte(c)), marked(word.Load(string(w))), "%#x at %d", c, k)
		}
	}
}
