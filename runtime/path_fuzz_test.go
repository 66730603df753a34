package runtime_test

import (
	"testing"

	"github.com/fastrobots/robots/internal/testkit/fuzzgen"
)

// FuzzPath checks Path against an independent transcription of the
// reference's GetPathParamsQuery, and that its result starts with '/',
// holds no fragment and is taken from the input. Seeds:
// testdata/fuzz/FuzzPath.
func FuzzPath(f *testing.F) {
	f.Add("https://example.com/a/b;p?q=1#frag")
	f.Add("//host/x://y?z")
	f.Fuzz(func(t *testing.T, rawURL string) {
		if err := fuzzgen.CheckPath(rawURL); err != nil {
			t.Fatal(err)
		}
	})
}
