package runtime

import (
	"strings"
	"testing"
)

// bytewiseStart is PathStart read one byte at a time throughout: the
// authority begins after the first "://" that no '/', '?' or ';' precedes,
// the path at the first '/', '?' or ';' after that, and a '#' before the
// path leaves none.
func bytewiseStart(rawURL string) int {
	switch {
	case strings.HasPrefix(rawURL, "https://"):
		return pathStart(rawURL, len("https://"), false)
	case strings.HasPrefix(rawURL, "http://"):
		return pathStart(rawURL, len("http://"), false)
	case strings.HasPrefix(rawURL, "//"):
		return pathStart(rawURL, 2, true)
	default:
		return pathStart(rawURL, 0, true)
	}
}

// TestPathStartAgreesWithPath: PathStart, which Path reads from, finds
// the start the byte-by-byte scan finds (bytewiseStart), on URLs of every shape its
// eight-byte reading treats apart: stop bytes in each byte of a word and
// in the tail, authorities shorter and longer than a word.
func TestPathStartAgreesWithPath(t *testing.T) {
	for _, u := range startTests {
		if got, want := PathStart(u), bytewiseStart(u); got != want {
			t.Errorf("%q: PathStart gives %d, the byte-by-byte scan %d", u, got, want)
		}
	}
}

// TestRootedStart: RootedStart is PathStart where Path reads a '/' there,
// and Path is then the URL's bytes from it up to the '#'; -1 elsewhere.
func TestRootedStart(t *testing.T) {
	for _, u := range startTests {
		checkRootedStart(t, u)
	}
}

func checkRootedStart(t *testing.T, u string) {
	t.Helper()
	i, start := RootedStart(u), PathStart(u)
	switch rooted := start >= 0 && u[start] == '/'; {
	case rooted && i != start:
		t.Errorf("%q: RootedStart gives %d, PathStart %d, where the path starts with '/'", u, i, start)
	case !rooted && i != -1:
		t.Errorf("%q: RootedStart gives %d where the path does not start with '/' (PathStart %d)", u, i, start)
	case rooted:
		inPlace, _, _ := strings.Cut(u[i:], "#")
		if p := Path(u); p != inPlace {
			t.Errorf("%q: read in place from RootedStart, the path is %q; Path gives %q", u, inPlace, p)
		}
	}
}

// startTests are URLs of every shape PathStart's eight-byte reading treats
// apart: stop bytes in each byte of a word and in the tail, authorities
// shorter and longer than a word.
var startTests = []string{
	"", "/", "#", "?", ";", ":", "://", "//", "///", "https://", "http://", "https:", "http:/",
	"https://example.com", "https://example.com/", "https://example.com/a/b;p?q=1#frag",
	"https://example.com#frag/x", "https://example.com?q", "https://example.com;p",
	"https://example.com?q#f", "https://example.com/#", "https://a.b/c#d/e#f",
	"https://user:pw@example.com:8080/x", "https://user@host/x", "https://u:p@h#/x",
	"https://[2001:db8::1]/x", "https://[2001:db8::1]:8080/x?y", "http://[::1]#/x",
	"HTTPS://EXAMPLE.COM/A", "Https://example.com/a", "HTTP://x/y", "hTtP://x/y",
	"https://example.com/%7Ea%2F?%23#%23", "https://ex%41mple.com/a",
	"https://example.com/caf\xc3\xa9", "https://\xff\xfe\x80.com/\x80", "https://\x80/",
	"https://ex\x00ample.com/a", "https://a\tb/c", "https://a\nb/\r", "https://\x7f/x",
	"//host/x://y?z", "//a/b/c", "//a", "//a#/b", "//:/x", "a/b", "example.com/a", "not a url",
	"mailto:x@y", "mailto:x/y", "ftp://h/p", "x://y://z/w", "x:/y://z", "/a?b=http://c/d",
	"https://example.com/b?c=http://d.e/", "https:/example.com/a", "https:example.com/a",
	// A stop byte at each index of the first and second words after "https://".
	"https:///", "https://a/", "https://ab/", "https://abc/", "https://abcd/", "https://abcde/",
	"https://abcdef/", "https://abcdefg/", "https://abcdefgh/", "https://abcdefghi/",
	"https://abcdefghijklmno?", "https://abcdefghijklmnop;", "https://abcdefghijklmnopq#",
	"http://abcdefg/", "http://abcdefgh#/", "http://abcdefghijklmno;x",
	// Bytes one bit from a stop byte: '.' and 'o' (0x2E, 0x6F), '+' and '{' (0x2B, 0x7B), '3' and 'c'.
	"https://a.o+{3c\x0f\x1f\x2f", "https://\x0f\x1f\x3e\x3c\x3a\x22\x24\x2e/x", "https://\x0b\x1b\x2b\x7b\x3b",
	"https://\x03\x13\x33\x63\xa3#", "https://\xaf\xbf\xbb\xa3\xff\xef\xdf\xcf\x2f",
}

// FuzzPathStart checks that PathStart finds the start the byte-by-byte
// scan finds, and RootedStart as TestRootedStart does; FuzzPath holds Path, which reads from it, to the reference.
// Run it with go test -fuzz FuzzPathStart ./runtime.
func FuzzPathStart(f *testing.F) {
	f.Add("https://example.com/a/b;p?q=1#frag")
	f.Add("https://abcdefghijklmnop;x#y")
	f.Add("http://[::1]:80#/x")
	f.Add("//host/x://y?z")
	f.Fuzz(func(t *testing.T, rawURL string) {
		if got, want := PathStart(rawURL), bytewiseStart(rawURL); got != want {
			t.Fatalf("%q: PathStart gives %d, the byte-by-byte scan %d", rawURL, got, want)
		}
		checkRootedStart(t, rawURL)
	})
}
