package compile_test

import (
	"testing"

	"github.com/fastrobots/robots/internal/testkit/fuzzgen"
)

// FuzzParse parses any bytes in both modes and checks fuzzgen.CheckParse's
// invariants: the lines and directives are the reference reading's, the
// groups are built from them as the grouping rules say, every line number
// is within 1..Lines, no group lacks a user-agent line, and the parsed file
// formats back to the same structure. Seeds: testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /private\nAllow: /private/ok\n"))
	f.Add([]byte("user-agent a\r\ndisallow /x\rsitemap: http://s/\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := fuzzgen.CheckParse(data); err != nil {
			t.Fatal(err)
		}
	})
}
