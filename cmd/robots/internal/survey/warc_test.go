package survey

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http/httputil"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nlnwa/gowarc/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/capture"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
)

// warcRow reads the fields a WARC capture adds to a capture row.
type warcRow struct {
	testCaptureRow
	Policy         string `json:"policy"`
	Reason         string `json:"reason"`
	FetchTime      string `json:"fetch_time"`
	Skipped        int    `json:"skipped"`
	RedirectTarget string `json:"redirect_target"`
	RedirectStatus int    `json:"redirect_status"`
	RedirectHops   int    `json:"redirect_hops"`
	RedirectError  string `json:"redirect_error"`
}

func warcRows(t *testing.T, run surveyRun) []warcRow {
	t.Helper()
	rows := make([]warcRow, len(run.captures))
	for i, c := range run.captures {
		require.NoError(t, json.Unmarshal([]byte(c.raw), &rows[i]), c.raw)
		rows[i].raw = c.raw
	}
	return rows
}

// warcCase is a capture of the test WARC and what the survey must make
// of it: the status and body the policy is read from.
type warcCase struct {
	url          string
	status       int    // the capture's own
	policyStatus int    // the status the policy is read from
	body         []byte // the body it is read from
	hops         int
	target       string
	redirectErr  string
}

// TestSurveyWARC reads a WARC built from corpus files, as .warc and as
// .warc.gz: 200s, a 404 page, a 503, a 429, redirects to a target in the
// file (before and after it, through two hops), to one absent, past five
// hops, a body over 500 KiB and an HTML page served as robots.txt; other
// records are skipped and counted. Each row agrees with the library:
// robots.FromStatus of the status and body, and each agent's Classify.
func TestSurveyWARC(t *testing.T) {
	a, b, c := warctest.CorpusFile(t, "files/02144.txt"), warctest.CorpusFile(t, "files/02270.txt"), warctest.CorpusFile(t, "files/04637.txt")
	html := warctest.CorpusFile(t, "files_html/02168.txt")
	big := bytes.Repeat(append(append([]byte{}, a...), '\n'), cli.MaxInputBytes/len(a)+2)
	require.Greater(t, len(big), cli.MaxInputBytes)
	page404 := []byte("<html><body>Not found</body></html>")

	var recs [][]byte
	recs = append(recs,
		warctest.Record(t, gowarc.Warcinfo, "", "application/warc-fields", []byte("software: test\r\n")),
		warctest.Record(t, gowarc.Request, "https://a.example/robots.txt", "application/http;msgtype=request",
			[]byte("GET /robots.txt HTTP/1.1\r\nHost: a.example\r\n\r\n")),
		warctest.Response(t, "https://a.example/robots.txt", 200, "", a),
		warctest.Response(t, "http://b.example/robots.txt", 200, "", b),
		warctest.Response(t, "https://c.example/robots.txt", 404, "", page404),
		warctest.Response(t, "https://d.example/robots.txt", 503, "", []byte("busy")),
		warctest.Response(t, "https://e.example/robots.txt", 429, "", []byte("slow down")),
		// A redirect to a target read after it, and one to a target read before it.
		warctest.Response(t, "http://f.example/robots.txt", 301, "Location: https://f.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://f.example/robots.txt", 200, "", c),
		warctest.Response(t, "http://g.example/robots.txt", 302, "Location: https://f.example/robots.txt\r\n", nil),
		// Two hops: http to https, then to www, through a relative Location.
		warctest.Response(t, "http://h.example/robots.txt", 301, "Location: https://h.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://h.example/robots.txt", 301, "Location: //www.h.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://www.h.example/robots.txt", 200, "", b),
		// A target the file does not hold.
		warctest.Response(t, "http://i.example/robots.txt", 301, "Location: https://i.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://j.example/robots.txt", 200, "", big),
		warctest.Response(t, "https://k.example/robots.txt", 200, "", html),
		warctest.Response(t, "https://a.example/index.html", 200, "", []byte("<html></html>")),
		warctest.Record(t, gowarc.Metadata, "https://a.example/robots.txt", "application/warc-fields", []byte("fetchTimeMs: 12\r\n")),
	)
	// Six redirects before a 200: past the five followed.
	for i := 0; i < 6; i++ {
		recs = append(recs, warctest.Response(t, fmt.Sprintf("https://l%d.example/robots.txt", i), 301,
			fmt.Sprintf("Location: https://l%d.example/robots.txt\r\n", i+1), nil))
	}
	recs = append(recs, warctest.Response(t, "https://l6.example/robots.txt", 200, "", a))
	// Five redirects before a 200: followed.
	for i := 0; i < 5; i++ {
		recs = append(recs, warctest.Response(t, fmt.Sprintf("https://m%d.example/robots.txt", i), 301,
			fmt.Sprintf("Location: https://m%d.example/robots.txt\r\n", i+1), nil))
	}
	recs = append(recs, warctest.Response(t, "https://m5.example/robots.txt", 200, "", c))

	want := []warcCase{
		{url: "https://a.example/robots.txt", status: 200, policyStatus: 200, body: a},
		{url: "http://b.example/robots.txt", status: 200, policyStatus: 200, body: b},
		{url: "https://c.example/robots.txt", status: 404, policyStatus: 404, body: page404},
		{url: "https://d.example/robots.txt", status: 503, policyStatus: 503, body: []byte("busy")},
		{url: "https://e.example/robots.txt", status: 429, policyStatus: 429, body: []byte("slow down")},
		{url: "https://f.example/robots.txt", status: 200, policyStatus: 200, body: c},
		{url: "https://www.h.example/robots.txt", status: 200, policyStatus: 200, body: b},
		{url: "https://j.example/robots.txt", status: 200, policyStatus: 200, body: big},
		{url: "https://k.example/robots.txt", status: 200, policyStatus: 200, body: html},
		{url: "https://l6.example/robots.txt", status: 200, policyStatus: 200, body: a},
		{url: "https://m5.example/robots.txt", status: 200, policyStatus: 200, body: c},
		// The 3xx captures come last, in the order they were read.
		{url: "http://f.example/robots.txt", status: 301, policyStatus: 200, body: c, hops: 1, target: "https://f.example/robots.txt"},
		{url: "http://g.example/robots.txt", status: 302, policyStatus: 200, body: c, hops: 1, target: "https://f.example/robots.txt"},
		{url: "http://h.example/robots.txt", status: 301, policyStatus: 200, body: b, hops: 2, target: "https://www.h.example/robots.txt"},
		{url: "https://h.example/robots.txt", status: 301, policyStatus: 200, body: b, hops: 1, target: "https://www.h.example/robots.txt"},
		{url: "http://i.example/robots.txt", status: 301, policyStatus: 301, target: "https://i.example/robots.txt", redirectErr: capture.RedirectAbsent},
	}
	for i := 0; i < 6; i++ {
		w := warcCase{url: fmt.Sprintf("https://l%d.example/robots.txt", i), status: 301, policyStatus: 200, body: a,
			hops: 6 - i, target: "https://l6.example/robots.txt"}
		if w.hops > capture.MaxRedirectHops {
			w.policyStatus, w.body, w.hops, w.redirectErr = 301, nil, 0, capture.RedirectHops
			w.target = fmt.Sprintf("https://l%d.example/robots.txt", i+capture.MaxRedirectHops)
		}
		want = append(want, w)
	}
	for i := 0; i < 5; i++ {
		want = append(want, warcCase{url: fmt.Sprintf("https://m%d.example/robots.txt", i), status: 301, policyStatus: 200,
			body: c, hops: 5 - i, target: "https://m5.example/robots.txt"})
	}

	for _, gz := range []bool{false, true} {
		name := "crawl.warc"
		if gz {
			name += ".gz"
		}
		t.Run(name, func(t *testing.T) {
			input := warctest.Write(t, name, gz, recs...)
			run := runSurveyTest(t, "--agents", strings.Join(surveyTestAgents, ","), input)
			require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
			rows := warcRows(t, run)
			require.Len(t, rows, len(want))
			skipped := 0
			for i, w := range want {
				row := rows[i]
				skipped += row.Skipped
				assert.Equal(t, i, row.Index)
				assert.Empty(t, row.Error, row.raw)
				assert.Equal(t, w.url, row.URL, row.raw)
				host := strings.TrimPrefix(strings.TrimPrefix(w.url, "http://"), "https://")
				assert.Equal(t, strings.TrimSuffix(host, "/robots.txt"), row.Host, row.raw)
				assert.Equal(t, w.status, row.Status, row.raw)
				assert.Equal(t, warctest.Date.Format(time.RFC3339), row.FetchTime, row.raw)
				assert.Equal(t, w.hops, row.RedirectHops, row.raw)
				assert.Equal(t, w.target, row.RedirectTarget, row.raw)
				assert.Equal(t, w.redirectErr, row.RedirectError, row.raw)
				if w.hops > 0 {
					assert.Equal(t, w.policyStatus, row.RedirectStatus, row.raw)
				}
				r := robots.FromStatus(w.policyStatus, w.body)
				unresolved := w.redirectErr == capture.RedirectAbsent
				if unresolved {
					// A target this file does not hold: no policy decides.
					assert.Equal(t, "unresolved", row.Policy, row.raw)
				} else {
					assert.Equal(t, policyName(r.Policy()), row.Policy, row.raw)
				}
				assert.Equal(t, reasonName(r.Reason()), row.Reason, row.raw)
				if w.policyStatus == w.status || w.hops > 0 {
					assert.Equal(t, int64(len(w.body)), row.Bytes, row.raw)
				}
				assert.Equal(t, r.Truncated(), row.Truncated, row.raw)
				assert.Equal(t, len(r.Sitemaps()), row.Sitemaps, row.raw)
				for j, agent := range surveyTestAgents {
					ar := run.agents[i*len(surveyTestAgents)+j]
					require.Equal(t, row.Index, ar.Index)
					require.Equal(t, agent, ar.Agent)
					assert.Equal(t, w.url, ar.URL)
					ag := r.Agent(agent)
					if agent == surveyAgentAny {
						ag = r.Agent()
					}
					class, allowed, disallowed := ag.Classify()
					if unresolved {
						assert.Equal(t, "unresolved", ar.Class, ar.raw)
						assert.Nil(t, ar.Allowed, ar.raw)
						assert.Nil(t, ar.Disallowed, ar.raw)
						continue
					}
					assert.Equal(t, class.String(), ar.Class, ar.raw)
					assert.Equal(t, allowed, deref(ar.Allowed), ar.raw)
					assert.Equal(t, disallowed, deref(ar.Disallowed), ar.raw)
				}
			}
			// warcinfo, the request, the page, the metadata record.
			assert.Equal(t, 4, skipped)
			// The policies the table gives: all for 503 and 429, none for 404.
			byURL := map[string]warcRow{}
			for _, r := range rows {
				byURL[r.URL] = r
			}
			assert.Equal(t, "allow_all", byURL["https://c.example/robots.txt"].Policy)
			assert.Equal(t, "disallow_all", byURL["https://d.example/robots.txt"].Policy)
			assert.Equal(t, "disallow_all", byURL["https://e.example/robots.txt"].Policy)
			assert.Equal(t, "unresolved", byURL["http://i.example/robots.txt"].Policy, "a target in no file of the run is no open site")
			assert.Equal(t, "allow_all", byURL["https://l0.example/robots.txt"].Policy, "past five hops, Google's allow-all")
			assert.True(t, byURL["https://j.example/robots.txt"].Truncated)
			assert.True(t, byURL["https://k.example/robots.txt"].HTML)
			assert.False(t, byURL["https://c.example/robots.txt"].HTML, "a 404 page is not read as robots.txt")
			for _, ar := range run.agents {
				switch ar.URL {
				case "https://d.example/robots.txt", "https://e.example/robots.txt":
					assert.Equal(t, "all", ar.Class, ar.raw)
				case "https://c.example/robots.txt", "https://l0.example/robots.txt":
					assert.Equal(t, "none", ar.Class, ar.raw)
				case "http://i.example/robots.txt":
					assert.Equal(t, "unresolved", ar.Class, ar.raw)
				}
			}
		})
	}
}

// TestSurveyWARCShards: four shards of a WARC with redirects write
// together the rows of one run.
func TestSurveyWARCShards(t *testing.T) {
	a, b := warctest.CorpusFile(t, "files/02144.txt"), warctest.CorpusFile(t, "files/02270.txt")
	input := warctest.Write(t, "s.warc.gz", true,
		warctest.Response(t, "http://a.example/robots.txt", 301, "Location: https://a.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://a.example/robots.txt", 200, "", a),
		warctest.Record(t, gowarc.Warcinfo, "", "application/warc-fields", []byte("x: y\r\n")),
		warctest.Response(t, "https://b.example/robots.txt", 200, "", b),
		warctest.Response(t, "http://b.example/robots.txt", 302, "Location: https://b.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://c.example/robots.txt", 503, "", nil),
	)
	whole := runSurveyTest(t, "--agents", "GPTBot,*", input)
	require.Equal(t, cli.ExitOK, whole.Code, whole.Stderr)
	var got []string
	for k := 1; k <= 4; k++ {
		s := runSurveyTest(t, "--agents", "GPTBot,*", "--shard", fmt.Sprintf("%d/4", k), input)
		require.Equal(t, cli.ExitOK, s.Code, s.Stderr)
		for _, c := range s.captures {
			got = append(got, c.raw)
		}
	}
	var all []string
	for _, c := range whole.captures {
		all = append(all, c.raw)
	}
	assert.ElementsMatch(t, all, got)
}

// TestSurveyWARCBadInput: each kind of bad input is one error row with its
// offset, nothing of a record whose length lies is answered, and the
// records after it are read.
func TestSurveyWARCBadInput(t *testing.T) {
	body := warctest.CorpusFile(t, "files/02144.txt")
	good := warctest.Response(t, "https://good.example/robots.txt", 200, "", body)
	after := warctest.Response(t, "https://after.example/robots.txt", 200, "", body)
	final := warctest.Response(t, "https://final.example/robots.txt", 200, "", body)
	// Records whose Content-Length claims other than their block holds.
	lying := warctest.Response(t, "https://lying.example/robots.txt", 200, "", body)
	withLength := func(length string) []byte {
		b := bytes.Replace(lying, []byte(fmt.Sprintf("Content-Length: %d\r\n", warctest.BlockLen(lying))),
			[]byte("Content-Length: "+length+"\r\n"), 1)
		require.NotEqual(t, lying, b)
		return b
	}
	lyingLonger := withLength(fmt.Sprint(warctest.BlockLen(lying) + 100))
	lyingShorter := withLength(fmt.Sprint(warctest.BlockLen(lying) - 40))
	// Four bytes short: the body's last line is cut, its end of record
	// read as the body's.
	lyingByFour := withLength(fmt.Sprint(warctest.BlockLen(lying) - 4))
	negative := withLength("-5")
	huge := withLength("1000000000000000000")
	notNumber := withLength("1e18")
	notHTTP := warctest.Record(t, gowarc.Response, "https://nothttp.example/robots.txt", "application/http;msgtype=response", []byte("hello, world"))
	notHTTPType := warctest.Record(t, gowarc.Response, "https://plain.example/robots.txt", "text/plain", body)
	junk := []byte("this is not a record\r\n")
	truncated := warctest.GzipMember(t, good)
	truncated = truncated[:len(truncated)/2]
	gzGood := int64(len(warctest.GzipMember(t, good)))

	for _, tt := range []struct {
		name   string
		gz     bool
		parts  [][]byte // gzip members already when gz
		offset int64    // of the error row; -1: past the first record
		match  string
	}{
		{"truncated gzip member", true, [][]byte{warctest.GzipMember(t, good), truncated, warctest.GzipMember(t, after)}, -1, "flate: corrupt input"},
		{"truncated gzip member at the end", true, [][]byte{warctest.GzipMember(t, good), warctest.GzipMember(t, after), truncated}, -1, "unexpected EOF"},
		{"junk between gzip members", true, [][]byte{warctest.GzipMember(t, good), junk, warctest.GzipMember(t, after)}, -1, "gzip"},
		{"junk between records", false, [][]byte{good, junk, after}, int64(len(good)), "no WARC record"},
		{"Content-Length too long, gzip", true, [][]byte{warctest.GzipMember(t, good), warctest.GzipMember(t, lyingLonger), warctest.GzipMember(t, after)}, gzGood, "Content-Length"},
		{"Content-Length too short, gzip", true, [][]byte{warctest.GzipMember(t, good), warctest.GzipMember(t, lyingShorter), warctest.GzipMember(t, after)}, gzGood, "Content-Length"},
		{"Content-Length four short, gzip", true, [][]byte{warctest.GzipMember(t, good), warctest.GzipMember(t, lyingByFour), warctest.GzipMember(t, after)}, gzGood, "Content-Length"},
		{"Content-Length negative, gzip", true, [][]byte{warctest.GzipMember(t, good), warctest.GzipMember(t, negative), warctest.GzipMember(t, after)}, gzGood, "is no length"},
		{"Content-Length 1e18, gzip", true, [][]byte{warctest.GzipMember(t, good), warctest.GzipMember(t, huge), warctest.GzipMember(t, after)}, gzGood, capture.ErrRecordTooLong.Error()},
		{"Content-Length too long", false, [][]byte{good, lyingLonger, after}, int64(len(good)), "Content-Length"},
		{"Content-Length too short", false, [][]byte{good, lyingShorter, after}, int64(len(good)), "Content-Length"},
		{"Content-Length four short", false, [][]byte{good, lyingByFour, after}, int64(len(good)), "Content-Length"},
		{"Content-Length negative", false, [][]byte{good, negative, after}, int64(len(good)), "is no length"},
		{"Content-Length 1e18", false, [][]byte{good, huge, after}, int64(len(good)), capture.ErrRecordTooLong.Error()},
		{"Content-Length no number", false, [][]byte{good, notNumber, after}, int64(len(good)), "is no length"},
		{"non-HTTP payload", false, [][]byte{good, notHTTP, after}, int64(len(good)), "not an HTTP response"},
		{"non-HTTP content type", true, [][]byte{warctest.GzipMember(t, good), warctest.GzipMember(t, notHTTPType), warctest.GzipMember(t, after)}, gzGood, "not an HTTP response"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			name := "bad.warc"
			if tt.gz {
				name += ".gz"
			}
			p := filepath.Join(t.TempDir(), name)
			last := final
			if strings.HasSuffix(tt.name, "at the end") {
				last = nil
			} else if tt.gz {
				last = warctest.GzipMember(t, final)
			}
			require.NoError(t, os.WriteFile(p, append(bytes.Join(tt.parts, nil), last...), 0o644))
			run := runSurveyTest(t, "--agents", "GPTBot", p)
			assert.Equal(t, cli.ExitNegative, run.Code, run.Stderr)
			var errs []testCaptureRow
			urls := map[string]bool{}
			for _, c := range run.captures {
				if c.Error != "" {
					errs = append(errs, c)
				} else {
					urls[c.URL] = true
				}
			}
			require.Len(t, errs, 1, run.Stdout)
			assert.Contains(t, errs[0].Error, tt.match, errs[0].raw)
			if tt.offset >= 0 {
				assert.Equal(t, tt.offset, errs[0].Offset, errs[0].raw)
			} else {
				assert.Positive(t, errs[0].Offset, errs[0].raw)
			}
			assert.True(t, urls["https://good.example/robots.txt"], "the record before is read")
			assert.False(t, urls["https://lying.example/robots.txt"], "a record whose length lies is not answered")
			if !strings.HasSuffix(tt.name, "at the end") {
				assert.True(t, urls["https://after.example/robots.txt"], "the record after is read")
			}
			if last != nil {
				assert.True(t, urls["https://final.example/robots.txt"], "the input is read to its end")
			}
		})
	}
}

// TestSurveyWARCEmpty: an input that holds nothing, an empty file or a
// gzip member of nothing, is one error row.
func TestSurveyWARCEmpty(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty.warc":      nil,
		"empty.warc.gz":   nil,
		"nothing.warc.gz": warctest.GzipMember(t, nil),
		"linebreaks.warc": []byte("\r\n\r\n"),
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), name)
			require.NoError(t, os.WriteFile(p, data, 0o644))
			run := runSurveyTest(t, "--agents", "GPTBot", p)
			assert.Equal(t, cli.ExitNegative, run.Code, run.Stderr)
			require.Len(t, run.captures, 1, run.Stdout)
			assert.Equal(t, capture.ErrNoRecord.Error(), run.captures[0].Error, run.captures[0].raw)
		})
	}
}

// TestSurveyWARCRecordBound: a record past surveyMaxRecordBytes is an
// error row, read no further than the bound, and the next record is read.
func TestSurveyWARCRecordBound(t *testing.T) {
	huge := warctest.Response(t, "https://huge.example/robots.txt", 200, "", bytes.Repeat([]byte("Disallow: /x\n"), capture.MaxRecordBytes/13+1))
	after := warctest.Response(t, "https://after.example/robots.txt", 200, "", warctest.CorpusFile(t, "files/02144.txt"))
	for _, gz := range []bool{false, true} {
		name := "huge.warc"
		if gz {
			name += ".gz"
		}
		t.Run(name, func(t *testing.T) {
			run := runSurveyTest(t, "--agents", "GPTBot", warctest.Write(t, name, gz, huge, after))
			assert.Equal(t, cli.ExitNegative, run.Code)
			require.NotEmpty(t, run.captures)
			assert.Contains(t, run.captures[0].Error, capture.ErrRecordTooLong.Error(), run.captures[0].raw)
			last := run.captures[len(run.captures)-1]
			assert.Equal(t, "https://after.example/robots.txt", last.URL, last.raw)
		})
	}
}

// TestSurveyWARCNoCapture: a WARC with no robots.txt response is one
// error row that counts its skipped records.
func TestSurveyWARCNoCapture(t *testing.T) {
	p := warctest.Write(t, "none.warc.gz", true,
		warctest.Record(t, gowarc.Warcinfo, "", "application/warc-fields", []byte("x: y\r\n")),
		warctest.Response(t, "https://a.example/", 200, "", []byte("<html></html>")))
	run := runSurveyTest(t, p)
	assert.Equal(t, cli.ExitNegative, run.Code)
	require.Len(t, run.captures, 1)
	rows := warcRows(t, run)
	assert.Equal(t, 2, rows[0].Skipped, rows[0].raw)
	assert.Contains(t, rows[0].Error, "no robots.txt response among 2 records")
}

// TestSurveyWARCMemberBound: a gzip member that decompresses past
// surveyMaxMemberBytes is given up there, an error row, and the next
// member is found among the compressed bytes.
func TestSurveyWARCMemberBound(t *testing.T) {
	head := []byte("WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 1\r\n\r\n")
	var bomb bytes.Buffer
	zw, err := gzip.NewWriterLevel(&bomb, gzip.BestSpeed)
	require.NoError(t, err)
	_, err = zw.Write(head)
	require.NoError(t, err)
	zeros := make([]byte, 1<<20)
	for n := 0; n <= capture.MaxMemberBytes; n += len(zeros) {
		_, err = zw.Write(zeros)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	after := warctest.Response(t, "https://after.example/robots.txt", 200, "", warctest.CorpusFile(t, "files/02144.txt"))
	p := filepath.Join(t.TempDir(), "bomb.warc.gz")
	require.NoError(t, os.WriteFile(p, append(bomb.Bytes(), warctest.GzipMember(t, after)...), 0o644))
	run := runSurveyTest(t, "--agents", "GPTBot", p)
	assert.Equal(t, cli.ExitNegative, run.Code)
	var errs []string
	for _, c := range run.captures {
		if c.Error != "" {
			errs = append(errs, c.Error)
		}
	}
	assert.Contains(t, strings.Join(errs, "\n"), fmt.Sprintf("gzip member longer than %d bytes", capture.MaxMemberBytes))
	last := run.captures[len(run.captures)-1]
	assert.Equal(t, "https://after.example/robots.txt", last.URL, last.raw)
}

// TestSurveyWARCEncodedBody: a body stored as it came on the wire,
// chunked or gzip-encoded, is read decoded; one whose writer decoded it
// but kept the header is read as stored.
func TestSurveyWARCEncodedBody(t *testing.T) {
	body := warctest.CorpusFile(t, "files/02270.txt")
	var chunked bytes.Buffer
	cw := httputil.NewChunkedWriter(&chunked)
	_, err := cw.Write(body[:len(body)/2])
	require.NoError(t, err)
	_, err = cw.Write(body[len(body)/2:])
	require.NoError(t, err)
	require.NoError(t, cw.Close())
	chunked.WriteString("\r\n")
	gz := warctest.GzipMember(t, body)
	p := warctest.Write(t, "enc.warc.gz", true,
		warctest.Response(t, "https://chunked.example/robots.txt", 200, "Transfer-Encoding: chunked\r\n", chunked.Bytes()),
		warctest.Response(t, "https://gzip.example/robots.txt", 200, "Content-Encoding: gzip\r\n", gz),
		warctest.Response(t, "https://both.example/robots.txt", 200, "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n", chunkedOf(t, gz)),
		warctest.Response(t, "https://decoded.example/robots.txt", 200, "Content-Encoding: gzip\r\n", body),
	)
	run := runSurveyTest(t, "--agents", "GPTBot,*", p)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	require.Len(t, run.captures, 4)
	r := robots.Parse(body)
	for i, c := range run.captures {
		assert.Equal(t, int64(len(body)), c.Bytes, c.raw)
		assert.Equal(t, len(r.Sitemaps()), c.Sitemaps, c.raw)
		assert.Equal(t, robots.ReportOf(body).Valid, c.Valid, c.raw)
		for j, agent := range []string{"GPTBot", "*"} {
			a := r.Agent(agent)
			if agent == "*" {
				a = r.Agent()
			}
			class, _, _ := a.Classify()
			assert.Equal(t, class.String(), run.agents[2*i+j].Class, run.agents[2*i+j].raw)
		}
	}
}

func chunkedOf(t *testing.T, p []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	cw := httputil.NewChunkedWriter(&b)
	_, err := cw.Write(p)
	require.NoError(t, err)
	require.NoError(t, cw.Close())
	b.WriteString("\r\n")
	return b.Bytes()
}

// TestSurveyWARCDecodedBound: a gzip-encoded body is counted up to
// surveyMaxDecodedBytes decoded, no further; its first 500 KiB are read.
func TestSurveyWARCDecodedBound(t *testing.T) {
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	require.NoError(t, err)
	_, err = zw.Write([]byte("User-agent: *\nDisallow: /\n"))
	require.NoError(t, err)
	blank := bytes.Repeat([]byte("\n"), 1<<20)
	for n := 0; n <= capture.MaxDecodedBytes; n += len(blank) {
		_, err = zw.Write(blank)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	require.Less(t, gz.Len(), capture.MaxRecordBytes, "the record itself is within its bound")
	p := warctest.Write(t, "bomb.warc.gz", true,
		warctest.Response(t, "https://bomb.example/robots.txt", 200, "Content-Encoding: gzip\r\n", gz.Bytes()))
	run := runSurveyTest(t, "--agents", "GPTBot", p)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	require.Len(t, run.captures, 1)
	assert.Equal(t, int64(capture.MaxDecodedBytes), run.captures[0].Bytes, run.captures[0].raw)
	assert.True(t, run.captures[0].Truncated)
	assert.Equal(t, "all", run.agents[0].Class, "the first 500 KiB are read")
}

// TestSurveyWARCOneMember: a .warc.gz compressed whole, one gzip member
// for every record, is read record by record within the member, up to
// surveyMaxRecordBytes of records; past them, an error row says why.
func TestSurveyWARCOneMember(t *testing.T) {
	a, b := warctest.CorpusFile(t, "files/02144.txt"), warctest.CorpusFile(t, "files/02270.txt")
	recs := bytes.Join([][]byte{
		warctest.Record(t, gowarc.Warcinfo, "", "application/warc-fields", []byte("x: y\r\n")),
		warctest.Response(t, "https://a.example/robots.txt", 200, "", a),
		warctest.Response(t, "https://b.example/robots.txt", 200, "", b),
	}, nil)
	p := filepath.Join(t.TempDir(), "whole.warc.gz")
	require.NoError(t, os.WriteFile(p, warctest.GzipMember(t, recs), 0o644))
	run := runSurveyTest(t, "--agents", "GPTBot", p)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	require.Len(t, run.captures, 2)
	assert.Equal(t, "https://a.example/robots.txt", run.captures[0].URL)
	assert.Equal(t, int64(len(b)), run.captures[1].Bytes)

	var many [][]byte
	for n := 0; n <= capture.MaxRecordBytes; n += len(b) {
		many = append(many, warctest.Response(t, "https://b.example/robots.txt", 200, "", b))
	}
	require.NoError(t, os.WriteFile(p, warctest.GzipMember(t, bytes.Join(many, nil)), 0o644))
	run = runSurveyTest(t, "--agents", "GPTBot", p)
	assert.Equal(t, cli.ExitNegative, run.Code)
	last := run.captures[len(run.captures)-1]
	assert.Contains(t, last.Error, "gzip member with more than", last.raw)
	assert.Equal(t, capture.MaxRecordBytes/len(many[0]), len(run.captures)-1, "the records within the bound are read")
}

// TestSurveySummaryStatuses: the summary counts the captures by status
// class and policy, and the WARC records skipped, as the rows say.
func TestSurveySummaryStatuses(t *testing.T) {
	body := warctest.CorpusFile(t, "files/02143.txt")
	p := warctest.Write(t, "s.warc.gz", true,
		warctest.Record(t, gowarc.Warcinfo, "", "application/warc-fields", []byte("software: test\r\n")),
		warctest.Response(t, "https://a.example/robots.txt", 200, "", body),
		warctest.Response(t, "https://b.example/robots.txt", 404, "", []byte("not here")),
		warctest.Response(t, "https://b.example/page", 200, "", []byte("a page")),
		warctest.Response(t, "https://c.example/robots.txt", 503, "", nil),
	)
	run := runSurveyTest(t, "--agents", "Googlebot", p)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	assert.Contains(t, run.Stdout, "statuses (class, Google's policy, captures): 2xx parsed 1, 4xx allow_all 1, 5xx disallow_all 1\n")
	assert.Contains(t, run.Stdout, "records skipped: 2 (WARC records that are not robots.txt responses)\n")
	skipped := 0
	for _, r := range warcRows(t, run) {
		skipped += r.Skipped
	}
	assert.Equal(t, 2, skipped, "the rows' skipped, summed")
}
