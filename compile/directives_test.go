package compile

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCrawlDelay(t *testing.T) {
	tests := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"10", 10 * time.Second, true},
		{"0", 0, true},
		{"0.5", 500 * time.Millisecond, true},
		{".5", 500 * time.Millisecond, true},
		{"2.", 2 * time.Second, true},
		{"007", 7 * time.Second, true},
		{"1.0005", 1000500 * time.Microsecond, true},
		{"0.1", 100 * time.Millisecond, true},
		{"0.0000000004", 0, true},
		{"0.0000000005", 1, true}, // half a nanosecond rounds up
		{"0.9999999995", time.Second, true},
		{"12345678.987654321", 12345678987654321, true}, // exact, past float64's 16 digits
		{"", 0, false},
		{".", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"1e3", 0, false},
		{"1.2.3", 0, false},
		{"10s", 0, false},
		{"10 20", 0, false},
		{"ten", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"+Inf", 0, false},
		{"-0.5", 0, false},
		{"0x10", 0, false},
		{"1_000", 0, false},
		{"99999999999999999999", maxDuration, true}, // past time.Duration: saturates
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, ok := ParseCrawlDelay(tt.value)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// maxDuration is the longest Duration, where the parsers saturate.
const maxDuration = time.Duration(math.MaxInt64)

// TestParseCrawlDelaySaturates walks values around the largest Duration,
// 2^63-1 ns, in increasing order: each parses, and none gives a shorter
// delay than the one before it. Past the largest Duration a value
// saturates: before, 9223372036.854775807 wrapped to a negative delay and
// larger values were refused, which left an earlier, shorter delay in
// force.
func TestParseCrawlDelaySaturates(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  time.Duration
	}{
		{"0." + strings.Repeat("0", 400) + "1", 0},
		{"60", time.Minute},
		{"9223372035", 9223372035 * time.Second},
		{"9223372036", 9223372036 * time.Second},
		{"9223372036.854", 9223372036854 * time.Millisecond},
		{"9223372036.8547", 9223372036854700 * time.Microsecond},
		{"9223372036.854775", 9223372036854775 * time.Microsecond},
		{"9223372036.8547758", 9223372036854775800},
		{"9223372036.854775806", maxDuration - 1},
		{"9223372036.8547758064", maxDuration - 1},
		{"9223372036.8547758065", maxDuration},
		{"9223372036.854775807", maxDuration},
		{"9223372036.8547758074999", maxDuration},
		{"9223372036.854775808", maxDuration},
		{"9223372036.9", maxDuration},
		{"9223372037", maxDuration},
		{"9223372037.000000000000000000001", maxDuration},
		{"18446744073709551616", maxDuration},
		{"99999999999999999999", maxDuration},
		{"1" + strings.Repeat("0", 308), maxDuration},
		{strings.Repeat("9", 400), maxDuration},
		{strings.Repeat("0", 400) + "9223372036", 9223372036 * time.Second},
		{strings.Repeat("9", 400) + "." + strings.Repeat("9", 400), maxDuration},
	} {
		t.Run(tt.value[:min(len(tt.value), 40)], func(t *testing.T) {
			got, ok := ParseCrawlDelay(tt.value)
			require.True(t, ok)
			assert.Equal(t, tt.want, got)
		})
	}
	var last time.Duration
	for _, v := range []string{"9223372036", "9223372036.854", "9223372036.8547", "9223372036.854775",
		"9223372036.8547758", "9223372036.854775806", "9223372036.854775807", "9223372036.854775808",
		"9223372037", strings.Repeat("9", 400)} {
		got, _ := ParseCrawlDelay(v)
		assert.GreaterOrEqual(t, got, last, "%s asks for a shorter delay than a smaller value", v)
		last = got
	}
}

// TestParseRequestRateSaturates walks periods around the largest
// Duration in each unit: a period too long for a Duration, or a number
// too long for an int, saturates instead of being refused.
func TestParseRequestRateSaturates(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  RequestRate
	}{
		{"1/9223372036", RequestRate{Requests: 1, Per: 9223372036 * time.Second}},
		{"1/9223372036s", RequestRate{Requests: 1, Per: 9223372036 * time.Second}},
		{"1/9223372037", RequestRate{Requests: 1, Per: maxDuration}},
		{"1/9223372037s", RequestRate{Requests: 1, Per: maxDuration}},
		{"1/153722867m", RequestRate{Requests: 1, Per: 153722867 * time.Minute}},
		{"1/153722868m", RequestRate{Requests: 1, Per: maxDuration}},
		{"1/2562047h", RequestRate{Requests: 1, Per: 2562047 * time.Hour}},
		{"1/2562048h", RequestRate{Requests: 1, Per: maxDuration}},
		{"1/9223372036854775807", RequestRate{Requests: 1, Per: maxDuration}},
		{"1/9223372036854775808", RequestRate{Requests: 1, Per: maxDuration}},
		{"1/" + strings.Repeat("9", 400) + "h", RequestRate{Requests: 1, Per: maxDuration}},
		{"9223372036854775808/1s", RequestRate{Requests: math.MaxInt, Per: time.Second}},
		{strings.Repeat("9", 400) + "/" + strings.Repeat("9", 400), RequestRate{Requests: math.MaxInt, Per: maxDuration}},
		{"1/9223372037s 1800-0600", RequestRate{Requests: 1, Per: maxDuration, Window: VisitTime{Start: 18 * time.Hour, End: 6 * time.Hour}}},
	} {
		t.Run(tt.value[:min(len(tt.value), 40)], func(t *testing.T) {
			got, ok := ParseRequestRate(tt.value)
			require.True(t, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestCrawlDelayPastTheLargestKeepsTheLongest: a huge last Crawl-delay
// gives the longest delay, never a wrapped negative one that would let
// requests go out at once.
func TestCrawlDelayPastTheLargestKeepsTheLongest(t *testing.T) {
	for _, v := range []string{"9223372036.854775807", "9223372037", "99999999999999999999"} {
		g := &Group{Extras: []Directive{{Key: "Crawl-delay", Value: "5"}, {Key: "Crawl-delay", Value: v}}}
		d, ok := g.CrawlDelay()
		assert.True(t, ok, v)
		assert.Equal(t, maxDuration, d, v)
	}
}

func TestParseRequestRate(t *testing.T) {
	window := VisitTime{Start: 18 * time.Hour, End: 6 * time.Hour}
	tests := []struct {
		value string
		want  RequestRate
		ok    bool
	}{
		{"1/5", RequestRate{Requests: 1, Per: 5 * time.Second}, true},
		{"1/10s", RequestRate{Requests: 1, Per: 10 * time.Second}, true},
		{"3/20m", RequestRate{Requests: 3, Per: 20 * time.Minute}, true},
		{"100/1h", RequestRate{Requests: 100, Per: time.Hour}, true},
		{"1/10S", RequestRate{Requests: 1, Per: 10 * time.Second}, true},
		{"1/10s 1800-0600", RequestRate{Requests: 1, Per: 10 * time.Second, Window: window}, true},
		{"1/10s\t1800-0600", RequestRate{Requests: 1, Per: 10 * time.Second, Window: window}, true},
		{"", RequestRate{}, false},
		{"5", RequestRate{}, false},
		{"1/", RequestRate{}, false},
		{"/5", RequestRate{}, false},
		{"0/5", RequestRate{}, false},
		{"1/0", RequestRate{}, false},
		{"1/s", RequestRate{}, false},
		{"1/5d", RequestRate{}, false},
		{"1.5/5", RequestRate{}, false},
		{"-1/5", RequestRate{}, false},
		{"1 / 5", RequestRate{}, false},
		{"1/5 soon", RequestRate{}, false},
		{"1/99999999999999999h", RequestRate{Requests: 1, Per: maxDuration}, true},
		{"00/5", RequestRate{}, false},
		{"1/000", RequestRate{}, false},
		{"1/-5", RequestRate{}, false},
		{"1/+5", RequestRate{}, false},
		{"1/1e3", RequestRate{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, ok := ParseRequestRate(tt.value)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseVisitTime(t *testing.T) {
	tests := []struct {
		value string
		want  VisitTime
		ok    bool
	}{
		{"0600-0845", VisitTime{6 * time.Hour, 8*time.Hour + 45*time.Minute}, true},
		{"0100 - 0800", VisitTime{time.Hour, 8 * time.Hour}, true},
		{"06:00-08:45", VisitTime{6 * time.Hour, 8*time.Hour + 45*time.Minute}, true},
		{"2200-0600", VisitTime{22 * time.Hour, 6 * time.Hour}, true},
		{"0000-2359", VisitTime{0, 23*time.Hour + 59*time.Minute}, true},
		{"", VisitTime{}, false},
		{"0600", VisitTime{}, false},
		{"600-845", VisitTime{}, false},
		{"2400-0100", VisitTime{}, false},
		{"0660-0700", VisitTime{}, false},
		{"06h00-08h45", VisitTime{}, false},
		{"0600-0845-0900", VisitTime{}, false},
		{"+600-0845", VisitTime{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, ok := ParseVisitTime(tt.value)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestVisitTimeContains(t *testing.T) {
	day := VisitTime{Start: 6 * time.Hour, End: 8*time.Hour + 45*time.Minute}
	night := VisitTime{Start: 22 * time.Hour, End: 6 * time.Hour}
	at := func(h, m int) time.Time { return time.Date(2024, 1, 1, h, m, 0, 0, time.UTC) }
	tests := []struct {
		name string
		w    VisitTime
		t    time.Time
		want bool
	}{
		{"start is in", day, at(6, 0), true},
		{"inside", day, at(7, 30), true},
		{"end is out", day, at(8, 45), false},
		{"before", day, at(5, 59), false},
		{"night before midnight", night, at(23, 0), true},
		{"night after midnight", night, at(1, 0), true},
		{"night at noon", night, at(12, 0), false},
		{"compared in UTC", day, time.Date(2024, 1, 1, 9, 0, 0, 0, time.FixedZone("X", 2*3600)), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.w.Contains(tt.t))
		})
	}
}

func TestParseHost(t *testing.T) {
	tests := []struct {
		value string
		want  Host
		ok    bool
	}{
		{"example.com", Host{Host: "example.com"}, true},
		{"www.example.com:8080", Host{Host: "www.example.com:8080"}, true},
		{"https://example.com", Host{Scheme: "https", Host: "example.com"}, true},
		{"http://example.com/", Host{Scheme: "http", Host: "example.com"}, true},
		{"https://xn--e1afmkfd.xn--p1ai:443", Host{Scheme: "https", Host: "xn--e1afmkfd.xn--p1ai:443"}, true},
		{"", Host{}, false},
		{"/", Host{}, false},
		{"ftp://example.com", Host{}, false},
		{"example.com/path", Host{}, false},
		{"example.com?q", Host{}, false},
		{"user@example.com", Host{}, false},
		{"example.com:port", Host{}, false},
		{"example.com example.org", Host{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, ok := ParseHost(tt.value)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseCleanParam(t *testing.T) {
	tests := []struct {
		value string
		want  CleanParam
		ok    bool
	}{
		{"ref", CleanParam{Params: []string{"ref"}}, true},
		{"ref /some_dir/get_book.pl", CleanParam{Params: []string{"ref"}, Path: "/some_dir/get_book.pl"}, true},
		{"sid&sort /forum/*.php", CleanParam{Params: []string{"sid", "sort"}, Path: "/forum/*.php"}, true},
		{"utm_source&utm_medium\t*", CleanParam{Params: []string{"utm_source", "utm_medium"}, Path: "*"}, true},
		{"", CleanParam{}, false},
		{"&ref", CleanParam{}, false},
		{"a&&b", CleanParam{}, false},
		{"ref=1 /x", CleanParam{}, false},
		{"ref forum", CleanParam{}, false},
		{"ref /a /b", CleanParam{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, ok := ParseCleanParam(tt.value)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestGroupNonStandardDirectives(t *testing.T) {
	body := "User-agent: a\n" +
		"Crawl-delay: 2\n" +
		"Crawl-delay: soon\n" + // invalid: the earlier value stands
		"Request-rate: 1/10s\n" +
		"Visit-time: 0600-0845\n" +
		"Disallow: /x\n" +
		"User-agent: b\n" +
		"CRAWL-DELAY: 0.5\n" +
		"Crawl-delay: 1.5\n" + // the last valid value wins
		"Allow: /\n" +
		"User-agent: c\n" +
		"Disallow: /\n"
	f := Parse([]byte(body), Options{})
	require.Len(t, f.Groups(), 3)

	d, ok := f.Groups()[0].CrawlDelay()
	assert.True(t, ok)
	assert.Equal(t, 2*time.Second, d)
	r, ok := f.Groups()[0].RequestRate()
	assert.True(t, ok)
	assert.Equal(t, RequestRate{Requests: 1, Per: 10 * time.Second}, r)
	w, ok := f.Groups()[0].VisitTime()
	assert.True(t, ok)
	assert.Equal(t, VisitTime{6 * time.Hour, 8*time.Hour + 45*time.Minute}, w)

	d, ok = f.Groups()[1].CrawlDelay()
	assert.True(t, ok)
	assert.Equal(t, 1500*time.Millisecond, d)
	_, ok = f.Groups()[1].RequestRate()
	assert.False(t, ok)

	_, ok = f.Groups()[2].CrawlDelay()
	assert.False(t, ok)
	_, ok = f.Groups()[2].VisitTime()
	assert.False(t, ok)
}

func TestFileHostsAndCleanParams(t *testing.T) {
	body := "Host: example.com\n" +
		"Clean-param: ref /books/\n" +
		"User-agent: Yandex\n" +
		"Disallow: /private\n" +
		"Host: https://www.example.com:443\n" +
		"host: /nope\n" +
		"Clean-param: &\n" +
		"clean-param: sid&sort\n"
	f := Parse([]byte(body), Options{})
	assert.Equal(t, []Host{
		{Line: 1, Host: "example.com"},
		{Line: 5, Scheme: "https", Host: "www.example.com:443"},
	}, f.Hosts())
	assert.Equal(t, []CleanParam{
		{Line: 2, Params: []string{"ref"}, Path: "/books/"},
		{Line: 8, Params: []string{"sid", "sort"}},
	}, f.CleanParams())
}

func TestGoogleRulePatternsIndexDirectory(t *testing.T) {
	tests := []struct {
		name string
		mode Mode
		rule Rule
		want []string
	}{
		{"plain rule", Google, Rule{Allow: true, Pattern: "/a"}, []string{"/a"}},
		{"index page allows its directory", Google, Rule{Allow: true, Pattern: "/x/index.html"}, []string{"/x/index.html", "/x/$"}},
		{"not for a disallow", Google, Rule{Pattern: "/x/index.html"}, []string{"/x/index.html"}},
		{"not in RFC mode", RFC, Rule{Allow: true, Pattern: "/x/index.html"}, []string{"/x/index.html"}},
		{"RFC mode normalises", RFC, Rule{Allow: true, Pattern: "/%7Ea"}, []string{"/~a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &File{Mode: tt.mode, dialect: tt.mode.Dialect()}
			var got []string
			for _, p := range f.RulePatterns(tt.rule) {
				got = append(got, p.Expr)
				assert.Equal(t, int32(len(p.Expr)), p.Priority)
				assert.Equal(t, tt.rule.Allow, p.Allow)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestMaxSecondsDigits(t *testing.T) {
	if got := len(strconv.FormatInt(maxSeconds, 10)); got != maxSecondsDigits {
		t.Fatalf("maxSeconds has %d digits, maxSecondsDigits says %d", got, maxSecondsDigits)
	}
}

// TestParseCrawlDelayDoesNotAllocate: a group's delay is read on every
// call of Group.CrawlDelay, which a crawler may make per request.
func TestParseCrawlDelayDoesNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { ParseCrawlDelay("12.5") }); n != 0 {
		t.Fatalf("ParseCrawlDelay allocates %v times", n)
	}
}
