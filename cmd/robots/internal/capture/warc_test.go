package capture

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSurveyWARCLyingLength is a file of 102 robots.txt responses whose
// second states a Content-Length that lies or is no length, as a .warc
// and as a .warc.gz, read through quickRecord and through the library: the
// lying record is one error row at its offset, and the other 101 are read
// as they are, none taken into its block.
func TestSurveyWARCLyingLength(t *testing.T) {
	const n = 102
	recs := make([][]byte, n)
	for i := range recs {
		recs[i] = warctest.Response(t, fmt.Sprintf("https://h%d.example/robots.txt", i), 200, "",
			[]byte(fmt.Sprintf("User-agent: *\nDisallow: /private%d\n", i)))
	}
	right := warctest.BlockLen(recs[1])
	for _, length := range []string{"-5", "1000000000000000000", "1e18", "",
		fmt.Sprint(right - 40), fmt.Sprint(right - 4), fmt.Sprint(right - 2), fmt.Sprint(right + 100), fmt.Sprint(right + 2000),
		fmt.Sprint(right + len(recs[2]) - 10)} { // into the next record's block, short of its end

		lie := bytes.Replace(recs[1], []byte(fmt.Sprintf("Content-Length: %d\r\n", right)), []byte("Content-Length: "+length+"\r\n"), 1)
		records := append([][]byte{recs[0], lie}, recs[2:]...)
		for _, gz := range []bool{false, true} {
			name := "lie.warc"
			offset := int64(len(recs[0]))
			if gz {
				name += ".gz"
				offset = int64(len(warctest.GzipMember(t, recs[0])))
			}
			p := warctest.Write(t, name, gz, records...)
			for _, libraryOnly := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/length %q/library %v", name, length, libraryOnly), func(t *testing.T) {
					src, err := openWARCSource(p, gz)
					require.NoError(t, err)
					defer src.Close()
					src.libraryOnly = libraryOnly
					index := 0
					take := func() (int, bool) { index++; return index - 1, true }
					var captures []string
					var errs []*Capture
					for {
						c, err := src.Next(take)
						if err == io.EOF {
							break
						}
						require.NoError(t, err)
						if c.Err != nil {
							errs = append(errs, c)
							continue
						}
						captures = append(captures, c.URL)
						i := len(captures)
						if i > 1 {
							i++ // past the lying one
						}
						assert.Equal(t, fmt.Sprintf("User-agent: *\nDisallow: /private%d\n", i-1), string(c.Body), c.URL)
					}
					require.Len(t, errs, 1, "one error row for the lying record")
					assert.Equal(t, offset, errs[0].Offset, errs[0].Err)
					assert.Len(t, captures, n-1, "every other record is read")
					assert.NotContains(t, captures, "https://h1.example/robots.txt")
				})
			}
		}
	}
}

// TestSurveyWARCRedirectBound: past surveyMaxRedirectIndexBytes, a 3xx
// capture is answered where it is read, with redirect_error index_full.
func TestSurveyWARCRedirectBound(t *testing.T) {
	s := &warcSource{index: map[string]warcEntry{}, budget: MaxRedirectIndexBytes}
	long := "https://x.example/" + strings.Repeat("a", MaxRedirectIndexBytes) + "/robots.txt"
	s.indexResponse(long, warcEntry{status: 200})
	assert.Empty(t, s.index, "an entry past the bound is not kept")
	s.indexResponse("https://y.example/robots.txt", warcEntry{status: 200})
	assert.Len(t, s.index, 1)
	assert.Equal(t, int64(MaxRedirectIndexBytes-len("https://y.example/robots.txt")-RedirectEntryBytes), s.budget,
		"an entry costs its strings and RedirectEntryBytes")

	// Through the source: the bound spent, a redirect is not held.
	p := warctest.Write(t, "r.warc", false,
		warctest.Response(t, "http://a.example/robots.txt", 301, "Location: https://a.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://a.example/robots.txt", 200, "", []byte("User-agent: *\nDisallow: /\n")))
	src, err := openWARCSource(p, false)
	require.NoError(t, err)
	defer src.Close()
	src.budget = 0
	index := 0
	take := func() (int, bool) { index++; return index - 1, true }
	var got []*Capture
	for {
		c, err := src.Next(take)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		got = append(got, c)
	}
	require.Len(t, got, 2)
	assert.Equal(t, RedirectIndexFull, got[0].RedirectError)
	assert.Equal(t, 301, got[0].Status)
	assert.Equal(t, 0, got[0].RedirectHops)
}
