package compile_test

import (
	"testing"

	"github.com/fastrobots/robots/internal/testkit/fuzzgen"
)

// FuzzEscapePattern checks EscapePattern against an independent escaper:
// its output is ASCII, it is idempotent, and it changes only bytes outside
// ASCII and the case of %xx escapes; and that the RFC normalisations give
// ASCII and are idempotent. Seeds: testdata/fuzz/FuzzEscapePattern.
func FuzzEscapePattern(f *testing.F) {
	f.Add("/Sanjos\u00e9/%aa%2f%zz%")
	f.Add("/*$%24%2A?a=%3a/@$")
	f.Fuzz(func(t *testing.T, value string) {
		if err := fuzzgen.CheckEscape(value); err != nil {
			t.Fatal(err)
		}
	})
}
