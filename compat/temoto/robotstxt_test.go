package robotstxt

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fastrobots/robots"
)

// googleVerdicts are the files on which temoto v1.1.2 and Google's
// reference parser disagree, with Google's verdict.
var googleVerdicts = []struct {
	name  string
	file  string
	agent string
	path  string
	want  bool
}{
	{"wildcard is anchored", "User-agent: *\nDisallow: /a*b\n", "Googlebot", "/x/a/b", true},
	{"wildcard still matches at start", "User-agent: *\nDisallow: /a*b\n", "Googlebot", "/a/b", false},
	{"allow wins a tie", "User-agent: *\nDisallow: /page\nAllow: /page\n", "Googlebot", "/page", true},
	{"agent is a token, not a prefix", "User-agent: google\nDisallow: /\n", "Googlebot", "/", true},
	{"rule before any user-agent is ignored", "Disallow: /\nUser-agent: *\nDisallow: /private\n", "Googlebot", "/", true},
	{"file with a rule before any user-agent still applies", "Disallow: /\nUser-agent: *\nDisallow: /private\n", "Googlebot", "/private", false},
	{"crawl-delay with a unit is ignored", "User-agent: *\nCrawl-delay: 1s\nDisallow: /x\n", "Googlebot", "/x", false},
	{"blank line does not split a group", "User-agent: *\nCrawl-delay: 10\n\nUser-agent: badbot\nDisallow: /\n", "Googlebot", "/", false},
	{"user-agent line is cut to its token", "User-agent: Googlebot/2.1\nDisallow: /\n", "Googlebot", "/", false},
	{"full user-agent header is cut to its token", "User-agent: colly\nDisallow: /\n", "colly - https://github.com/gocolly/colly/v2", "/", false},
	{"other token in a header is not matched", "User-agent: gocolly\nDisallow: /\n", "colly - https://github.com/gocolly/colly/v2", "/", true},
	{"longest match wins", "User-agent: *\nDisallow: /\nAllow: /public\n", "x", "/public/a", true},
	{"query is matched", "User-agent: *\nDisallow: /*?s=\n", "x", "/find?s=1", false},
	{"longer pattern wins, not longer regexp", "User-agent: *\nDisallow: /*.php\nAllow: /public/\n", "x", "/public/x.php", true},
	{"non-ASCII pattern is percent-encoded", "User-agent: *\nDisallow: /\u00e9\n", "x", "/%C3%A9", false},
	{"a space inside a pattern is part of it", "User-agent: *\nDisallow: /cdiscount pro/\n", "x", "/cdiscount-express.html", true},
	{"bytes past 500 KiB are not read", strings.Repeat("#", 500*1024) + "\nUser-agent: *\nDisallow: /\n", "x", "/", true},
}

func TestGoogleVerdicts(t *testing.T) {
	for _, tc := range googleVerdicts {
		t.Run(tc.name, func(t *testing.T) {
			r, err := FromString(tc.file)
			if err != nil {
				t.Fatalf("FromString: %v", err)
			}
			if got := r.TestAgent(tc.path, tc.agent); got != tc.want {
				t.Errorf("TestAgent(%q, %q) = %v, want %v", tc.path, tc.agent, got, tc.want)
			}
			if got := r.FindGroup(tc.agent).Test(tc.path); got != tc.want {
				t.Errorf("FindGroup(%q).Test(%q) = %v, want %v", tc.agent, tc.path, got, tc.want)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		code    int
		want    bool
		wantErr bool
	}{
		{200, false, false},
		{301, true, false},
		{404, true, false},
		{401, true, false},
		{500, false, false},
		{503, false, false},
		{100, false, true},
		{600, false, true},
	}
	for _, tc := range tests {
		r, err := FromStatusAndString(tc.code, "User-agent: *\nDisallow: /\n")
		if (err != nil) != tc.wantErr {
			t.Errorf("FromStatusAndString(%d): err = %v, want error %v", tc.code, err, tc.wantErr)
		}
		if got := r.TestAgent("/", "bot"); got != tc.want {
			t.Errorf("status %d: TestAgent = %v, want %v", tc.code, got, tc.want)
		}
		if got := r.FindGroup("bot").Test("/"); got != tc.want {
			t.Errorf("status %d: FindGroup.Test = %v, want %v", tc.code, got, tc.want)
		}
	}
}

func TestServerErrorWithoutBody(t *testing.T) {
	r, err := FromStatusAndBytes(503, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.FindGroup("bot").Test("/") || r.TestAgent("/", "bot") {
		t.Error("a 503 allows a path; want every path disallowed")
	}
}

func TestZeroValues(t *testing.T) {
	var r RobotsData
	if !r.TestAgent("/", "bot") || !r.FindGroup("bot").Test("/x") {
		t.Error("zero RobotsData disallows; want allow")
	}
	var g Group
	if !g.Test("/") {
		t.Error("zero Group disallows; want allow")
	}
	var nilData *RobotsData
	if !nilData.FindGroup("bot").Test("/") {
		t.Error("nil RobotsData's group disallows; want allow")
	}
}

func TestEmptyAgentGetsStarGroups(t *testing.T) {
	r, _ := FromString("User-agent: *\nDisallow: /\n")
	for _, agent := range []string{"", " bot", "/bot"} {
		if r.TestAgent("/", agent) {
			t.Errorf("TestAgent(/, %q) = true; want the '*' group's false", agent)
		}
	}
}

func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		file string
		want time.Duration
	}{
		{"User-agent: *\nCrawl-delay: 10\n", 10 * time.Second},
		{"User-agent: *\nCrawl-delay: 0.5\n", 500 * time.Millisecond},
		{"User-agent: *\nCrawl-delay: 1s\n", 0},
		{"User-agent: *\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 3\n", 3 * time.Second},
		// No rule between the user-agent lines: Google reads one group.
		{"User-agent: *\nCrawl-delay: 2\nUser-agent: bot\nCrawl-delay: 4\n", 4 * time.Second},
		{"User-agent: *\nCrawl-delay: 2\nDisallow: /x\nUser-agent: other\nCrawl-delay: 4\n", 2 * time.Second},
		{"User-agent: bot\nCrawl-delay: 4\n", 4 * time.Second},
	}
	for _, tc := range tests {
		r, _ := FromString(tc.file)
		if got := r.FindGroup("bot/1.0").CrawlDelay; got != tc.want {
			t.Errorf("%q: CrawlDelay = %v, want %v", tc.file, got, tc.want)
		}
	}
}

func TestHostAndSitemaps(t *testing.T) {
	r, err := FromString("Sitemap: http://a/1.xml\nHost: a.example\nUser-agent: *\nSitemap: http://a/2.xml\nHost: b.example\n")
	if err != nil {
		t.Fatal(err)
	}
	if r.Host != "b.example" {
		t.Errorf("Host = %q, want b.example", r.Host)
	}
	if want := "http://a/1.xml http://a/2.xml"; strings.Join(r.Sitemaps, " ") != want {
		t.Errorf("Sitemaps = %q, want %q", r.Sitemaps, want)
	}
}

func TestGroupAgent(t *testing.T) {
	r, _ := FromString("User-agent: *\nDisallow: /a\nUser-agent: Bot\nDisallow: /b\n")
	if got := r.FindGroup("bot/2").Agent; !strings.EqualFold(got, "bot") {
		t.Errorf("Agent = %q, want bot", got)
	}
	if got := r.FindGroup("other").Agent; got != "" {
		t.Errorf("Agent of the '*' groups = %q, want empty", got)
	}
}

func TestParseErrorMessage(t *testing.T) {
	e := ParseError{Errs: []error{errors.New("one"), errors.New("two")}}
	if got, want := e.Error(), "Parse error(s): \none\ntwo\n"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestFromResponseNil(t *testing.T) {
	r, err := FromResponse(nil)
	if r != nil || err != nil {
		t.Errorf("FromResponse(nil) = %v, %v; want nil, nil", r, err)
	}
}

// closeCounter records whether the body was closed.
type closeCounter struct {
	io.Reader
	closed bool
}

func (c *closeCounter) Close() error { c.closed = true; return nil }

func TestFromResponseDoesNotClose(t *testing.T) {
	body := &closeCounter{Reader: strings.NewReader("User-agent: *\nDisallow: /x\n")}
	r, err := FromResponse(&http.Response{StatusCode: 200, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	if body.closed {
		t.Error("FromResponse closed the body")
	}
	if r.TestAgent("/x", "bot") {
		t.Error("/x allowed; want disallowed")
	}
}

// failingReader fails after its first bytes, as a connection cut mid-body.
type failingReader struct{ sent bool }

var errCut = errors.New("connection cut")

func (f *failingReader) Read(p []byte) (int, error) {
	if f.sent {
		return 0, errCut
	}
	f.sent = true
	return copy(p, "User-agent: *\n"), nil
}

func TestFromResponseFailedBodyDisallows(t *testing.T) {
	r, err := FromResponse(&http.Response{StatusCode: 200, Body: io.NopCloser(&failingReader{})})
	if !errors.Is(err, errCut) {
		t.Fatalf("err = %v, want %v", err, errCut)
	}
	if r.TestAgent("/", "bot") || r.FindGroup("bot").Test("/") {
		t.Error("a failed body allows; want every path disallowed")
	}
}

func TestFromResponseLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/down/robots.txt" {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "User-agent: *\nDisallow: /page\nAllow: /page\nDisallow: /private\n")
	}))
	defer srv.Close()
	tests := []struct {
		path string
		test string
		want bool
	}{
		{"/robots.txt", "/page", true},
		{"/robots.txt", "/private/a", false},
		{"/down/robots.txt", "/page", false},
	}
	for _, tc := range tests {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := FromResponse(resp)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := r.FindGroup("bot").Test(tc.test); got != tc.want {
			t.Errorf("%s: Test(%q) = %v, want %v", tc.path, tc.test, got, tc.want)
		}
	}
}

// endlessReader sends n bytes of prefix followed by '#', counting them.
type endlessReader struct {
	prefix  []byte
	n, sent int
}

func (e *endlessReader) Read(p []byte) (int, error) {
	if e.sent == e.n {
		return 0, io.EOF
	}
	k := min(len(p), e.n-e.sent)
	for i := range p[:k] {
		if e.sent+i < len(e.prefix) {
			p[i] = e.prefix[e.sent+i]
		} else {
			p[i] = '#'
		}
	}
	e.sent += k
	return k, nil
}

// TestFromResponseKeepsMaxBytes checks that FromResponse reads a body far
// longer than robots.MaxBytes to its end, keeps only what the parser reads,
// and answers as FromBytes does.
func TestFromResponseKeepsMaxBytes(t *testing.T) {
	const size = 64 << 20
	body := &endlessReader{prefix: []byte("User-agent: *\nDisallow: /x\n"), n: size}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := FromResponse(&http.Response{StatusCode: 200, Body: io.NopCloser(body)})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if body.sent != size {
		t.Errorf("read %d bytes of %d; want the body read to its end", body.sent, size)
	}
	if r.TestAgent("/x", "bot") || !r.TestAgent("/y", "bot") {
		t.Error("want /x disallowed and /y allowed")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8*robots.MaxBytes {
		t.Errorf("allocated %d bytes for a %d-byte body; want at most %d", got, size, 8*robots.MaxBytes)
	}
}
