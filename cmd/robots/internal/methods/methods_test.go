package methods

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fastrobots/robots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMethods(t *testing.T) {
	ms, err := ParseMethods("dpi, cc,imc,root")
	require.NoError(t, err)
	assert.Equal(t, []Method{DPI, CC, IMC, Root}, ms)
	assert.Equal(t, Methods(), ms)
	ms, err = ParseMethods(" ")
	assert.NoError(t, err)
	assert.Nil(t, ms)
	for _, bad := range []string{"dpi,", "DPI", "dpi,dpi", "google", ",cc"} {
		_, err := ParseMethods(bad)
		assert.Error(t, err, bad)
	}
	assert.False(t, Method("x").Valid())
	assert.Equal(t, Class(""), Classify("x", []byte("User-agent: *\nDisallow: /\n"), "GPTBot"))
}

// TestFileReadOnce: a File asked about several agents by every method
// answers as a file read afresh for each, with the caller's parse or its
// own.
func TestFileReadOnce(t *testing.T) {
	body := []byte("User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /x\n\nUser-agent: *\nDisallow:\n")
	agents := []string{"GPTBot", "CCBot", "ClaudeBot", "GPTBot"}
	want := map[string]Class{"GPTBot": All, "CCBot": Some, "ClaudeBot": None}
	for _, r := range []*robots.Robots{nil, robots.Parse(body)} {
		f := NewFile(body, r)
		for _, a := range agents {
			for _, m := range Methods() {
				got := f.Classify(m, a)
				assert.Equal(t, Classify(m, body, a), got, "%s %s", m, a)
				if m != Root || want[a] != Some {
					assert.Equal(t, want[a], got, "%s %s", m, a)
				}
			}
		}
	}
}

// anyBodyPieces are what TestClassifyAnyBytes builds files of: keys in
// the spellings each reader treats apart, values, and line ends.
var anyBodyPieces = struct {
	keys, agents, values, ends []string
}{
	keys: []string{"User-agent:", "user-agent:", "User-Agent :", "Allow:", "allow:", "Disallow:", "disallow :",
		"Crawl-delay:", "Sitemap:", "# ", "", " ", "Host:", "<html>", "\ufeff", "\x00", "Content-Signal:"},
	agents: []string{"GPTBot", "gptbot", "*", " * ", "GPTBot/1.0", "ERRORS", "Sitemaps", "", "CCBot", "GPT\u00a0Bot", "GPTBot # x"},
	values: []string{"/", "", " /", "/ ", "/$", "/*", "*", "/a", "/a?b", "?", "/x # y", "/\u00a0", "/a:b", "http://x/y",
		"*.php", "/ü", "/%C3%BC", "/a\x00b", "/a#b", "$", "/*$", "\xff"},
	ends: []string{"\n", "\r\n", "\r", "\x0b", "\u0085", "\u2028", "\x1c", "\n\n", ""},
}

// TestClassifyAnyBytes: bodies built at random of the pieces each reader
// treats apart, and licensed files cut and changed at random, never make
// a method panic, get a class each method gives, and hold what
// tally.add holds of every file.
func TestClassifyAnyBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 1))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var bodies [][]byte
	for range 4000 {
		var b strings.Builder
		for range rng.IntN(14) {
			k := pick(anyBodyPieces.keys)
			v := pick(anyBodyPieces.values)
			if strings.HasPrefix(strings.ToLower(k), "user") {
				v = pick(anyBodyPieces.agents)
			}
			b.WriteString(pick([]string{"", "", " ", "\t"}) + k + pick([]string{" ", "", "\t"}) + v + pick(anyBodyPieces.ends))
		}
		bodies = append(bodies, []byte(b.String()))
	}
	entries, err := os.ReadDir(licensedFiles)
	require.NoError(t, err)
	for i := range 400 {
		body, err := os.ReadFile(filepath.Join(licensedFiles, entries[rng.IntN(len(entries))].Name()))
		require.NoError(t, err)
		body = body[:rng.IntN(len(body)+1)]
		for range rng.IntN(8) {
			if len(body) > 0 {
				body[rng.IntN(len(body))] = byte(rng.IntN(256))
			}
		}
		if i%2 == 0 {
			body = append(body, pick(anyBodyPieces.ends)...)
		}
		bodies = append(bodies, body)
	}
	gives := map[Method][]Class{
		DPI:  {None, Some, All, Uncounted},
		CC:   {None, Some, All, Uncounted},
		IMC:  {None, Some, All},
		Root: {None, All},
	}
	tl := newTally()
	for i, body := range bodies {
		for _, agent := range []string{"GPTBot", "gptbot", "*", "ERRORS", ""} {
			tl.add(t, strconv.Itoa(i), body, agent)
			for _, m := range Methods() {
				assert.Contains(t, gives[m], Classify(m, body, agent), "%s %q for %q", m, body, agent)
			}
		}
	}
	t.Log("\n" + tl.table("five agents"))
}
