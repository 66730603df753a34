package rawurl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/rawurl"
	"github.com/fastrobots/robots/runtime"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		in, origin, rest string
		ok               bool
	}{
		{"https://www.example.com/a/b?c=d#e", "https://www.example.com", "/a/b?c=d", true},
		{"http://a.com", "http://a.com", "", true},
		{"http://a.com#x/y", "http://a.com", "", true},
		{"http://a.com?q#f", "http://a.com", "?q", true},
		{"http://a.com:8080/x", "http://a.com:8080", "/x", true},
		{"https://www.groupon.com/coupons/x%x", "https://www.groupon.com", "/coupons/x%x", true},
		{"http://a.com/\x00\xff%", "http://a.com", "/\x00\xff%", true},
		{"http://a.com:80/", "", "", false},   // default port: Origin drops it
		{"https://a.com:443/", "", "", false}, // default port
		{"http://a.com:080/", "", "", false},  // leading zero
		{"http://a.com:65536/", "", "", false},
		{"http://a.com:/", "", "", false},
		{"http://a.com./", "", "", false}, // trailing dot
		{"http://A.com/", "", "", false},  // upper case
		{"HTTP://a.com/", "", "", false},
		{"http://u@a.com/", "", "", false},
		{"http://[::1]/", "", "", false},
		{"http://a_b.com/", "", "", false},
		{"http:///a", "", "", false},
		{"http://a.com;p/x", "", "", false},
		{"ftp://a.com/", "", "", false},
		{"//a.com/x", "", "", false},
		{"", "", "", false},
	}
	for _, c := range cases {
		origin, rest, ok := rawurl.Split(c.in)
		assert.Equal(t, c.ok, ok, "%q", c.in)
		if c.ok {
			assert.Equal(t, c.origin, origin, "%q", c.in)
			assert.Equal(t, c.rest, rest, "%q", c.in)
		}
		checkSplit(t, c.in)
	}
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { rawurl.Split("https://www.example.com/a/b?c=1") }))
}

// Split's rest ends before the first '#', wherever it is.
func TestSplitCutsTheFragment(t *testing.T) {
	cases := []struct {
		in, origin, rest string
		ok               bool
	}{
		{"https://www.example.com/a/b?c=d#e", "https://www.example.com", "/a/b?c=d", true},
		{"http://a.com", "http://a.com", "", true},
		{"http://a.com#x/y", "http://a.com", "", true},
		{"http://a.com?q#f#g", "http://a.com", "?q", true},
		{"http://a.com:8080/x#", "http://a.com:8080", "/x", true},
		{"http://a.com:80/#x", "", "", false},
		{"http://A.com/#x", "", "", false},
	}
	for _, c := range cases {
		origin, rest, ok := rawurl.Split(c.in)
		assert.Equal(t, []any{c.origin, c.rest, c.ok}, []any{origin, rest, ok}, "%q", c.in)
	}
}

func TestSplitOf(t *testing.T) {
	cases := []struct {
		in, origin, rest string
		ok               bool
	}{
		{"https://a.com/x?y#z", "https://a.com", "/x?y", true},
		{"https://a.com", "https://a.com", "", true},
		{"https://a.com?q", "https://a.com", "?q", true},
		{"https://a.com#f", "https://a.com", "", true},
		{"https://a.com.uk/x", "https://a.com", "", false},
		{"https://a.com:8080/x", "https://a.com", "", false},
		{"https://a.com:443/x", "https://a.com", "", false}, // the same origin, written otherwise
		{"https://a.co", "https://a.com", "", false},
		{"http://a.com/x", "https://a.com", "", false},
	}
	for _, c := range cases {
		rest, ok := rawurl.SplitOf(c.in, c.origin)
		assert.Equal(t, c.ok, ok, "%q of %q", c.in, c.origin)
		assert.Equal(t, c.rest, rest, "%q of %q", c.in, c.origin)
		if ok {
			origin, want, plain := rawurl.Split(c.in)
			assert.True(t, plain, c.in)
			assert.Equal(t, c.origin, origin, c.in)
			assert.Equal(t, want, rest, c.in)
		}
	}
}

// FuzzSplitOf: whenever SplitOf says a URL is of a plain URL's origin,
// Split agrees, rest included.
func FuzzSplitOf(f *testing.F) {
	f.Add("https://a.com/x", "https://a.com/y#z")
	f.Fuzz(func(t *testing.T, first, u string) {
		origin, _, ok := rawurl.Split(first)
		if !ok {
			return
		}
		rest, ok := rawurl.SplitOf(u, origin)
		if !ok {
			return
		}
		o, want, plain := rawurl.Split(u)
		if !plain || o != origin || want != rest {
			t.Fatalf("SplitOf(%q, %q) = %q; Split gives %q %q %v", u, origin, rest, o, want, plain)
		}
	})
}

// checkSplit checks Split(u), when ok, against robots.Origin and
// runtime.Path.
func checkSplit(t *testing.T, u string) {
	origin, rest, ok := rawurl.Split(u)
	if !ok {
		return
	}
	if want, err := robots.Origin(u); err != nil || want != origin {
		t.Fatalf("Split(%q) origin %q; Origin gives %q, %v", u, origin, want, err)
	}
	path := rest
	switch {
	case rest == "":
		path = "/"
	case rest[0] != '/':
		path = "/" + rest
	}
	if want := runtime.Path(u); want != path {
		t.Fatalf("Split(%q) rest %q reads as path %q; Path gives %q", u, rest, path, want)
	}
}

// FuzzSplit: Split never panics, and agrees with robots.Origin and
// runtime.Path whenever it answers.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"https://www.example.com/a;b?c#d", "http://a.com:8080?x", "http://a.b#c/d", "https://a.com/x://y"} {
		f.Add(s)
	}
	f.Fuzz(checkSplit)
}
