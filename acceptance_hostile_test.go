package robots_test

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/memstat"
)

// Hostile inputs: each test feeds one input a server could send (or a
// caller could pass) and checks the verdicts and the limits that keep the
// engine linear: the bytes it allocates, per byte of input, stay within
// HostileAllocPerByte (with HostileAllocFloor for the fixed costs), and it
// finishes within HangGuard, a hang detector, not a timing assertion: how
// fast it finishes is for the benchmarks in bench/ (BenchmarkPathological).
// docs/limits.md lists every limit and the test that pins it.
const (
	// HostileAllocPerByte bounds the bytes allocated per byte of input
	// (body read plus URLs asked), in one mode: parse, agent resolution and
	// decisions together. Linear work allocates a small multiple of its
	// input: a copy of the body, the parsed structure, the compiled rules.
	// The worst measured is about 71 (a 10 MB line, RFC mode: docs/limits.md).
	HostileAllocPerByte = 128
	// HostileAllocFloor covers the costs that do not grow with the input,
	// chiefly the lazy DFA's memory budget per rule set.
	HostileAllocFloor = 16 << 20
)

var hostileModes = []robots.Mode{robots.Google, robots.RFC}

// hostileRun runs fn, in each mode, under the hang guard, and checks that
// it allocates at most HostileAllocPerByte per byte of input (or the floor).
// fn must report with assert, not require: it runs on another goroutine.
func hostileRun(t *testing.T, input int, fn func(m robots.Mode)) {
	t.Helper()
	for _, m := range hostileModes {
		var alloc uint64
		done := finishes(func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%v mode: panic: %v\n%s", m, p, debug.Stack())
				}
			}()
			a0 := memstat.Allocated()
			fn(m)
			alloc = memstat.Allocated() - a0
		})
		if !done {
			t.Fatalf("%v mode: not done after %v: a hang", m, hangGuard())
		}
		limit := max(uint64(HostileAllocFloor), uint64(input)*HostileAllocPerByte)
		assert.LessOrEqual(t, alloc, limit, "%v mode: %d bytes allocated for %d bytes of input", m, alloc, input)
		t.Logf("%v mode: %d bytes of input, %d bytes allocated (%.1f per byte)", m, input, alloc, float64(alloc)/float64(input))
	}
}

// A 10 MB single line: only the first MaxBytes of the body are read, and
// of the line only MaxLineBytes; the pattern is the cut prefix. Reading the
// whole body changes nothing but Truncated.
func TestHostileHugeLine(t *testing.T) {
	const head = "User-agent: *\nDisallow: /"
	body := []byte(head + strings.Repeat("a", 10<<20))
	// the rule line is "Disallow: /aaa..." cut at MaxLineBytes
	patLen := robots.MaxLineBytes - len("Disallow: ")
	hostileRun(t, robots.MaxBytes+2*patLen, func(m robots.Mode) {
		for _, opt := range []robots.Option{robots.WithMaxBytes(robots.MaxBytes), robots.WithMaxBytes(-1)} {
			r := robots.Parse(body, robots.WithMode(m), opt)
			assert.Equal(t, 2, r.Lines())
			if assert.Len(t, r.Groups(), 1) && assert.Len(t, r.Groups()[0].Rules, 1) {
				assert.Len(t, r.Groups()[0].Rules[0].Value, patLen)
			}
			a := r.Agent("FooBot")
			checkVerdict(t, a, "https://example.com/"+strings.Repeat("a", patLen-2), noRule)
			checkVerdict(t, a, "https://example.com/"+strings.Repeat("a", patLen-1), disallowedBy(2))
		}
		assert.True(t, robots.Parse(body, robots.WithMode(m)).Truncated())
		assert.False(t, robots.Parse(body, robots.WithMode(m), robots.WithMaxBytes(-1)).Truncated())
	})
	// A 10 MB line that is no directive at all.
	junk := []byte(strings.Repeat("x", 10<<20))
	hostileRun(t, robots.MaxBytes, func(m robots.Mode) {
		r := robots.Parse(junk, robots.WithMode(m))
		assert.Equal(t, 1, r.Lines())
		assert.Empty(t, r.Groups())
		assert.True(t, r.Agent("FooBot").Allowed("https://example.com/x"))
	})
}

// 5 MB of '*': as a pattern it is cut at the line limit and matches
// everything; as a body of its own it is one line without a directive.
func TestHostileStars(t *testing.T) {
	stars := strings.Repeat("*", 5<<20)
	body := []byte("User-agent: *\nDisallow: /" + stars + "\nAllow: /" + stars[:100] + "x$\n")
	hostileRun(t, 2*robots.MaxLineBytes+robots.MaxBytes, func(m robots.Mode) {
		for _, opt := range []robots.Option{robots.WithMaxBytes(robots.MaxBytes), robots.WithMaxBytes(-1)} {
			r := robots.Parse(body, robots.WithMode(m), opt)
			a := r.Agent("FooBot")
			checkVerdict(t, a, "https://example.com/", disallowedBy(2))
			checkVerdict(t, a, "https://example.com/"+strings.Repeat("ab", 5000)+"x", disallowedBy(2))
		}
		// The Allow line lies past MaxBytes: only the whole body has it,
		// and it is shorter than the cut Disallow, which still wins.
		r := robots.Parse(body, robots.WithMode(m), robots.WithMaxBytes(-1))
		if assert.Len(t, r.Groups(), 1) {
			assert.Len(t, r.Groups()[0].Rules, 2)
		}
		checkVerdict(t, r.Agent("FooBot"), "https://example.com/x", disallowedBy(2))

		r = robots.Parse([]byte(stars), robots.WithMode(m), robots.WithMaxBytes(-1))
		assert.Empty(t, r.Groups())
		assert.True(t, r.Agent("FooBot").Allowed("https://example.com/"))
	})
}

// 100,000 groups, each naming its own agent: each agent finds its group,
// an unnamed one finds none and is allowed everywhere.
func TestHostileManyGroups(t *testing.T) {
	const n = 100_000
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "User-agent: bot%s\nDisallow: /p%d\n", letters(i), i)
	}
	body := []byte(b.String())
	hostileRun(t, len(body), func(m robots.Mode) {
		r := robots.Parse(body, robots.WithMode(m), robots.WithMaxBytes(-1))
		assert.Len(t, r.Groups(), n)
		for _, i := range []int{0, 1, n / 2, n - 1} {
			a := r.Agent("BOT" + strings.ToUpper(letters(i)))
			checkVerdict(t, a, "https://example.com/p"+strconv.Itoa(i), disallowedBy(2*i+2))
			checkVerdict(t, a, "https://example.com/q", noRule)
		}
		checkVerdict(t, r.Agent("other"), "https://example.com/p1", noRule)
		// Read to the default limit, the file ends within a group.
		r = robots.Parse(body, robots.WithMode(m))
		assert.True(t, r.Truncated())
		assert.Less(t, len(r.Groups()), n)
	})
}

// letters names agent i with letters only, as product tokens are.
func letters(i int) string {
	s := strconv.FormatInt(int64(i), 26)
	return strings.Map(func(c rune) rune {
		if c <= '9' {
			return 'a' + c - '0'
		}
		return c - 'a' + 'k'
	}, s)
}

// 50,000 rules in one group, plain and with wildcards: the longest match
// still decides.
func TestHostileManyRules(t *testing.T) {
	const n = 50_000
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range n {
		if i%2 == 0 {
			fmt.Fprintf(&b, "Disallow: /p%d/\n", i)
		} else {
			fmt.Fprintf(&b, "Allow: /*/q%d$\n", i)
		}
	}
	body := []byte(b.String())
	hostileRun(t, len(body), func(m robots.Mode) {
		r := robots.Parse(body, robots.WithMode(m), robots.WithMaxBytes(-1))
		if assert.Len(t, r.Groups(), 1) {
			assert.Len(t, r.Groups()[0].Rules, n)
		}
		a := r.Agent("FooBot")
		for i := 0; i < n; i += 4999 {
			if i%2 == 0 {
				checkVerdict(t, a, fmt.Sprintf("https://example.com/p%d/x", i), disallowedBy(i+2))
			} else {
				checkVerdict(t, a, fmt.Sprintf("https://example.com/x/q%d", i), allowedBy(i+2))
			}
		}
		// "/p2/q3" is disallowed by /p2/ (length 4) and allowed by /*/q3$
		// (length 6): the longer allow wins.
		checkVerdict(t, a, "https://example.com/p2/q3", allowedBy(5))
		checkVerdict(t, a, "https://example.com/none", noRule)
	})
}

// 1,000 patterns of 100 '*' each against a 100 KB URL: no pattern may take
// time or memory proportional to the product of its stars and the URL.
func TestHostileStarPatterns(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "Disallow: /%s%d\n", strings.Repeat("*a", 100), i)
	}
	body := []byte(b.String())
	long := "https://example.com/" + strings.Repeat("a", 100_000)
	urls := []string{long, long + "7", long + "b", "https://example.com/" + strings.Repeat("ab", 50_000) + "a999"}
	input := len(body)
	for _, u := range urls {
		input += len(u)
	}
	hostileRun(t, input, func(m robots.Mode) {
		a := robots.Parse(body, robots.WithMode(m)).Agent("FooBot")
		checkVerdict(t, a, urls[0], noRule)
		checkVerdict(t, a, urls[1], disallowedBy(2+7))       // only "...a7" matches
		checkVerdict(t, a, urls[2], noRule)                  // no digit
		checkVerdict(t, a, urls[3], disallowedBy(2+999))     // "...a999": 999 is the longest of 9, 99, 999
		checkVerdict(t, a, urls[0]+"12", disallowedBy(2+12)) // 1 and 12 match; 12 is longer
	})
}

// NUL bytes end a line's content; the line break still ends the line.
func TestHostileNUL(t *testing.T) {
	body := []byte("User-agent: *\x00bot\nDisallow: /a\x00/b\n\x00Disallow: /c\nDisallow: /d" +
		strings.Repeat("\x00", 1<<20) + "\nAllow: /d/e\n")
	hostileRun(t, len(body), func(m robots.Mode) {
		r := robots.Parse(body, robots.WithMode(m), robots.WithMaxBytes(-1))
		assert.Equal(t, 6, r.Lines())
		a := r.Agent("FooBot")
		checkVerdict(t, a, "https://example.com/a/x", disallowedBy(2))
		checkVerdict(t, a, "https://example.com/c", noRule)
		checkVerdict(t, a, "https://example.com/d", disallowedBy(4))
		checkVerdict(t, a, "https://example.com/d/e", allowedBy(5))
		r = robots.Parse([]byte(strings.Repeat("\x00", 1<<20)), robots.WithMode(m))
		assert.Empty(t, r.Groups())
		assert.Equal(t, 1, r.Lines())
	})
}

// utf16 encodes s in UTF-16, with a byte order mark.
func utf16(s string, bigEndian bool) []byte {
	out := []byte{0xFF, 0xFE}
	if bigEndian {
		out = []byte{0xFE, 0xFF}
	}
	for _, c := range s { // ASCII only
		if bigEndian {
			out = append(out, 0, byte(c))
		} else {
			out = append(out, byte(c), 0)
		}
	}
	return out
}

// A UTF-16 robots.txt is not UTF-8, and Google reads it byte by byte. Every
// character carries a NUL byte, which ends the line's content at once: in
// little endian, "\xFF\xFEU\x00s\x00..." keeps "\xFF\xFEU" on the first line
// and the lines after "\n\x00" start with NUL; in big endian, the first line
// is "\xFE\xFF" and every later one starts with NUL. No line holds a
// directive, so there are no groups and everything is allowed.
func TestHostileUTF16(t *testing.T) {
	const text = "User-agent: *\nDisallow: /\nSitemap: https://example.com/s.xml\n"
	for _, be := range []bool{false, true} {
		body := utf16(text, be)
		hostileRun(t, len(body), func(m robots.Mode) {
			r := robots.Parse(body, robots.WithMode(m))
			assert.Empty(t, r.Groups(), "big endian: %v", be)
			assert.Empty(t, r.Sitemaps())
			assert.Empty(t, r.Others())
			assert.Equal(t, 4, r.Lines())
			checkVerdict(t, r.Agent("FooBot"), "https://example.com/", noRule)
			checkVerdict(t, r.Agent("*"), "https://example.com/private", noRule)
		})
	}
}

// Invalid UTF-8 is bytes like any other: escaped in patterns, matched as
// given in Google mode, normalised in RFC mode.
func TestHostileInvalidUTF8(t *testing.T) {
	body := []byte("User-agent: \xFF\nDisallow: /a\n\nUser-agent: *\nDisallow: /\xFF\xFE\xC3(\nAllow: /\xC0\xAF\xED\xA0\x80\n")
	hostileRun(t, len(body), func(m robots.Mode) {
		r := robots.Parse(body, robots.WithMode(m))
		if assert.Len(t, r.Groups(), 2) {
			assert.Equal(t, "/%FF%FE%C3(", r.Groups()[1].Rules[0].Pattern)
			assert.Equal(t, "", r.Groups()[0].Agents[0].Token, "\\xFF is no agent byte")
		}
		a := r.Agent("FooBot")
		checkVerdict(t, a, "https://example.com/%FF%FE%C3(x", disallowedBy(5))
		checkVerdict(t, a, "https://example.com/%C0%AF%ED%A0%80", allowedBy(6))
		if m == robots.Google {
			checkVerdict(t, a, "https://example.com/\xFF\xFE\xC3(", noRule) // the URL is taken as given
		} else {
			checkVerdict(t, a, "https://example.com/\xFF\xFE\xC3(", disallowedBy(5)) // and normalised in RFC mode
		}
		checkVerdict(t, r.Agent(""), "https://example.com/a", disallowedBy(2))
	})
	// A megabyte of bytes that are no UTF-8 at all.
	junk := make([]byte, 1<<20)
	for i := range junk {
		junk[i] = byte(0x80 + i%0x80)
	}
	junk = append([]byte("User-agent: *\nDisallow: /"), junk...)
	hostileRun(t, robots.MaxBytes, func(m robots.Mode) {
		r := robots.Parse(junk, robots.WithMode(m))
		assert.True(t, r.Truncated())
		a := r.Agent("FooBot")
		assert.True(t, a.Allowed("https://example.com/%80%81%82"), "the pattern is longer")
		if assert.Len(t, r.Groups(), 1) && assert.Len(t, r.Groups()[0].Rules, 1) {
			checkVerdict(t, a, "https://example.com"+r.Groups()[0].Rules[0].Pattern+"x", disallowedBy(2))
		}
	})
}

// The largest file of the real-world corpus (3.7 MB): read to MaxBytes,
// asked its crawled URLs.
func TestHostileLargestRealFile(t *testing.T) {
	skipWithoutCorpus(t)
	name, body := largestCorpusFile(t)
	require.Greater(t, len(body), 3<<20, "%s", name)
	urls := readCrawledURLs(t, corpusURLs)[name]
	urls = append(urls, corpusSynthetic...)
	input := robots.MaxBytes
	for _, u := range urls {
		input += len(u)
	}
	t.Logf("%s: %d bytes, %d URLs", name, len(body), len(urls))
	hostileRun(t, input, func(m robots.Mode) {
		r := robots.Parse(body, robots.WithMode(m))
		assert.True(t, r.Truncated())
		whole := robots.Parse(body, robots.WithMode(m), robots.WithMaxBytes(-1))
		assert.Greater(t, whole.Lines(), r.Lines())
		for _, agents := range corpusAgents {
			a := r.Agent(agents...)
			for _, u := range urls {
				d := a.Decide(u)
				assert.True(t, d.Rule == nil || d.Rule.Allow == d.Allowed)
				assert.True(t, d.Rule != nil || d.Allowed)
			}
		}
	})
}

// largestCorpusFile finds the largest file the corpus manifest lists and
// returns it, in one pass over the archive.
func largestCorpusFile(t *testing.T) (string, []byte) {
	var manifest []byte
	var bestName string
	var best []byte
	eachCorpusFile(t, func(name string, body []byte) {
		switch {
		case name == "manifest.tsv":
			manifest = body
		case len(body) > len(best):
			bestName, best = name, body
		}
	})
	// The manifest's largest must be the one found.
	largest, size := "", 0
	for _, line := range strings.Split(string(manifest), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) > 1 {
			if n, err := strconv.Atoi(cols[1]); err == nil && n > size {
				largest, size = cols[0], n
			}
		}
	}
	require.Equal(t, largest, bestName, "largest file of the manifest")
	require.Len(t, best, size)
	return bestName, best
}

// A file of only CRs: every CR ends a line, and there is nothing else.
func TestHostileOnlyCR(t *testing.T) {
	body := []byte(strings.Repeat("\r", 1<<20))
	hostileRun(t, len(body), func(m robots.Mode) {
		r := robots.Parse(body, robots.WithMode(m))
		assert.Equal(t, robots.MaxBytes+1, r.Lines())
		assert.True(t, r.Truncated())
		assert.Empty(t, r.Groups())
		r = robots.Parse(body, robots.WithMode(m), robots.WithMaxBytes(-1))
		assert.Equal(t, len(body)+1, r.Lines())
		checkVerdict(t, r.Agent("FooBot"), "https://example.com/", noRule)
	})
	// CR-only line breaks in a real file, many times over.
	cr := []byte(strings.Repeat("User-agent: *\rDisallow: /a\r\rAllow: /a/b\r", 20_000))
	hostileRun(t, len(cr), func(m robots.Mode) {
		r := robots.Parse(cr, robots.WithMode(m))
		a := r.Agent("FooBot")
		checkVerdict(t, a, "https://example.com/a", disallowedBy(2))
		checkVerdict(t, a, "https://example.com/a/b", allowedBy(4))
	})
}

// Content past MaxBytes is ignored, even mid-line, and Truncated reports
// it; a rule cut by the limit is the cut prefix.
func TestHostileTruncation(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	n := robots.MaxBytes - len(head) - len("Disallow: /cut") // bytes of comment lines
	pad := strings.Repeat("# padding\n", n/10)
	if r := n % 10; r > 0 {
		pad += strings.Repeat("#", r-1) + "\n"
	}
	body := []byte(head + pad + "Disallow: /cutHERE\nDisallow: /b\n")
	require.Equal(t, robots.MaxBytes, len(head)+len(pad)+len("Disallow: /cut"))
	hostileRun(t, len(body), func(m robots.Mode) {
		r := robots.Parse(body, robots.WithMode(m))
		assert.True(t, r.Truncated())
		a := r.Agent("FooBot")
		cutLine := r.Lines()
		checkVerdict(t, a, "https://example.com/a", disallowedBy(2))
		checkVerdict(t, a, "https://example.com/cut", disallowedBy(cutLine)) // "/cut", not "/cutHERE"
		checkVerdict(t, a, "https://example.com/b", noRule)                  // past the limit
		whole := robots.Parse(body, robots.WithMode(m), robots.WithMaxBytes(-1))
		assert.False(t, whole.Truncated())
		checkVerdict(t, whole.Agent("FooBot"), "https://example.com/b", disallowedBy(cutLine+1))
		checkVerdict(t, whole.Agent("FooBot"), "https://example.com/cut", noRule)
	})
	exact := []byte(head + strings.Repeat("#", robots.MaxBytes-len(head)))
	assert.False(t, robots.Parse(exact).Truncated(), "exactly MaxBytes is not truncated")
	assert.True(t, robots.Parse(append(exact, '\n')).Truncated())
}

// A line keeps MaxLineBytes bytes; the next line is read normally.
func TestHostileLineCut(t *testing.T) {
	const prefix = "Disallow: /"
	keep := robots.MaxLineBytes - len(prefix) // pattern bytes after the '/'
	body := []byte("User-agent: *\n" + prefix + strings.Repeat("x", keep) + "TAIL\nAllow: /y\n")
	hostileRun(t, len(body), func(m robots.Mode) {
		r := robots.Parse(body, robots.WithMode(m))
		if assert.Len(t, r.Groups(), 1) && assert.Len(t, r.Groups()[0].Rules, 2) {
			assert.Equal(t, "/"+strings.Repeat("x", keep), r.Groups()[0].Rules[0].Value)
		}
		a := r.Agent("FooBot")
		checkVerdict(t, a, "https://example.com/"+strings.Repeat("x", keep), disallowedBy(2))
		checkVerdict(t, a, "https://example.com/"+strings.Repeat("x", keep-1), noRule)
		checkVerdict(t, a, "https://example.com/y", allowedBy(3))
	})
}
