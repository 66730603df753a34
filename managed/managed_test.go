package managed_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/managed"
)

// TestFindCloudflareDocsExample reads the file Cloudflare's documentation
// shows for a site whose own robots.txt the managed block is prepended to
// (testdata/cloudflare-docs-example.txt, the policy comments shortened):
// one closed section from the BEGIN marker to the END marker, and the
// site's own rules after it.
func TestFindCloudflareDocsExample(t *testing.T) {
	body, err := os.ReadFile("testdata/cloudflare-docs-example.txt")
	require.NoError(t, err)
	secs := managed.Find(body)
	require.Len(t, secs, 1)
	s := secs[0]
	assert.Equal(t, managed.Cloudflare, s.CDN)
	assert.True(t, s.Closed)
	assert.Equal(t, 8, s.FirstLine, "the BEGIN marker's line")
	assert.Equal(t, 38, s.LastLine, "the END marker's line")
	assert.True(t, strings.HasPrefix(string(body[s.Start:s.End]), "# BEGIN Cloudflare Managed content\n"))
	assert.True(t, strings.HasSuffix(string(body[s.Start:s.End]), "# END Cloudflare Managed Content"))

	// GPTBot is disallowed everywhere by the block; the site's own file
	// names no GPTBot group, so its '*' group decides once the block is gone.
	r := robots.Parse(body)
	gpt := r.Agent("GPTBot")
	assert.False(t, gpt.Allowed("https://www.crawlstop.com/"))
	d := gpt.Decide("https://www.crawlstop.com/")
	require.NotNil(t, d.Rule)
	assert.True(t, s.Contains(d.Rule.Line), "the deciding rule lies in the section")

	site := managed.Without(body, secs)
	assert.Equal(t, bytes.Count(body, []byte("\n")), bytes.Count(site, []byte("\n")), "every line is kept")
	own := robots.Parse(site)
	assert.True(t, own.Agent("GPTBot").Allowed("https://www.crawlstop.com/"))
	assert.False(t, own.Agent("GPTBot").Allowed("https://www.crawlstop.com/lp"))
	d = own.Agent("GPTBot").Decide("https://www.crawlstop.com/lp")
	require.NotNil(t, d.Rule)
	assert.Equal(t, 40, d.Rule.Line, "the site's lines keep their numbers")
	assert.Equal(t, r.Sitemaps(), own.Sitemaps())
}

// TestFind: each section is given by its text (body[Start:End]), its
// first and last lines, and whether it is closed.
func TestFind(t *testing.T) {
	const begin, end = "# BEGIN Cloudflare Managed content", "# END Cloudflare Managed Content"
	type sec struct {
		text        string
		first, last int
		closed      bool
	}
	for _, tt := range []struct {
		name string
		body string
		want []sec
	}{
		{"none", "User-agent: *\nDisallow: /managed\n", nil},
		{"a section alone", begin + "\nUser-agent: GPTBot\nDisallow: /\n" + end + "\n",
			[]sec{{begin + "\nUser-agent: GPTBot\nDisallow: /\n" + end, 1, 4, true}}},
		{"any case, any spacing, CRLF", "User-agent: x\r\n  #  begin   CLOUDFLARE managed Content \r\nDisallow: /\r\n#END cloudflare MANAGED content\r\n",
			[]sec{{"  #  begin   CLOUDFLARE managed Content \r\nDisallow: /\r\n#END cloudflare MANAGED content", 2, 4, true}}},
		{"unclosed runs to the end", begin + "\nUser-agent: GPTBot\nDisallow: /",
			[]sec{{begin + "\nUser-agent: GPTBot\nDisallow: /", 1, 3, false}}},
		{"an END alone is ignored", end + "\nUser-agent: *\n", nil},
		{"a marker in a value is no marker", "Disallow: /" + begin + "\n", nil},
		{"a BEGIN inside is part of the section", begin + "\n" + begin + "\n" + end + "\nx",
			[]sec{{begin + "\n" + begin + "\n" + end, 1, 3, true}}},
		{"a byte order mark", "\xEF\xBB\xBF" + begin + "\n" + end + "\n",
			[]sec{{begin + "\n" + end, 1, 2, true}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := managed.Find([]byte(tt.body))
			require.Len(t, got, len(tt.want))
			for k, s := range got {
				w := tt.want[k]
				assert.Equal(t, managed.Cloudflare, s.CDN)
				assert.Equal(t, w.text, tt.body[s.Start:s.End])
				assert.Equal(t, w.first, s.FirstLine)
				assert.Equal(t, w.last, s.LastLine)
				assert.Equal(t, w.closed, s.Closed)
			}
		})
	}
	two := managed.Find([]byte(begin + "\n" + end + "\nx\n" + begin + "\n" + end))
	require.Len(t, two, 2)
	assert.Equal(t, [4]int{1, 2, 4, 5}, [4]int{two[0].FirstLine, two[0].LastLine, two[1].FirstLine, two[1].LastLine})
}

// TestWithoutKeepsLineNumbers: every line of the file keeps its number
// once the sections are blanked, whatever its line breaks, and the lines
// outside them keep their bytes.
func TestWithoutKeepsLineNumbers(t *testing.T) {
	body := []byte("a\r\n# BEGIN Cloudflare Managed content\rUser-agent: GPTBot\r\nDisallow: /\n# END Cloudflare Managed Content\r\nb\nc")
	secs := managed.Find(body)
	require.Len(t, secs, 1)
	got := managed.Without(body, secs)
	assert.Equal(t, "a\r\n\r\r\n\n\r\nb\nc", string(got))
	assert.Equal(t, robots.Parse(body).Lines(), robots.Parse(got).Lines())
	assert.Equal(t, body, managed.Without(body, nil), "no section: the body itself")
	// A blanked line between a CR and an LF keeps a space, so that they
	// stay two line breaks: inside a section, before it and after it.
	for body, want := range map[string]string{
		"#BEGIN CloudflAre MAnAged Content \r0\n":                                        "\r \n",
		"a\r# BEGIN Cloudflare Managed content\nb":                                       "a\r \n",
		"# BEGIN Cloudflare Managed content\rx\r# END Cloudflare Managed Content\nb":     "\r\r \nb",
		"a\r# BEGIN Cloudflare Managed content\r\n# END Cloudflare Managed Content\r\nb": "a\r\r\n\r\nb",
	} {
		secs := managed.Find([]byte(body))
		require.Len(t, secs, 1, "%q", body)
		got := managed.Without([]byte(body), secs)
		assert.Equal(t, want, string(got), "%q", body)
		assert.Equal(t, robots.Parse([]byte(body)).Lines(), robots.Parse(got).Lines(), "%q", body)
	}
}

// TestFindIsBounded: a body past the size limit is read as far as the
// parser reads it, and a long file with many near-misses is read once.
func TestFindIsBounded(t *testing.T) {
	long := strings.Repeat("m", robots.MaxBytes) + "\n# BEGIN Cloudflare Managed content\n"
	assert.Nil(t, managed.Find([]byte(long)), "a marker past the limit is not read")
	many := strings.Repeat("# Manage managed MANAGEment\n", 20000)
	assert.Nil(t, managed.Find([]byte(many)))
}

// TestFindSharedCorpus reads the real-world corpus beside the repository
// (../shared): every file that holds Cloudflare's BEGIN marker as a line
// has one closed section ending at the END marker's line, and no other
// file has a section.
func TestFindSharedCorpus(t *testing.T) {
	f, err := os.Open("../../shared/corpus/robots-corpus.tar.gz")
	if err != nil {
		t.Skipf("../shared is not beside the repository: %v", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	tr := tar.NewReader(z)
	files, withMarker := 0, 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if h.Typeflag != tar.TypeReg {
			continue
		}
		body, err := io.ReadAll(tr)
		require.NoError(t, err)
		files++
		secs := managed.Find(body)
		if !bytes.Contains(body, []byte("\n# BEGIN Cloudflare Managed content")) {
			assert.Empty(t, secs, h.Name)
			continue
		}
		withMarker++
		if assert.Len(t, secs, 1, h.Name) {
			assert.True(t, secs[0].Closed, h.Name)
			assert.True(t, strings.HasPrefix(string(body[secs[0].End-len("# END Cloudflare Managed Content"):]), "# END Cloudflare Managed Content"), h.Name)
		}
	}
	require.Greater(t, files, 20000)
	assert.Positive(t, withMarker)
	t.Logf("%d files, %d with a Cloudflare managed section", files, withMarker)
}

// FuzzFind: for any body, Find does not panic, its sections lie in order
// within what is read, and Without keeps the number of lines the parser
// counts.
func FuzzFind(f *testing.F) {
	body, _ := os.ReadFile("testdata/cloudflare-docs-example.txt")
	f.Add(body)
	f.Add([]byte("# BEGIN Cloudflare Managed content\r# END Cloudflare Managed Content"))
	f.Fuzz(func(t *testing.T, body []byte) {
		secs := managed.Find(body)
		at, line := 0, 0
		for _, s := range secs {
			if s.Start < at || s.End < s.Start || s.End > min(len(body), robots.MaxBytes) || s.FirstLine <= line || s.LastLine < s.FirstLine {
				t.Fatalf("section out of order or bounds: %+v after %d, line %d", s, at, line)
			}
			at, line = s.End, s.LastLine
		}
		if a, b := robots.Parse(body).Lines(), robots.Parse(managed.Without(body, secs)).Lines(); a != b {
			t.Fatalf("Without: %d lines, was %d", b, a)
		}
	})
}
