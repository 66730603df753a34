package bench

import (
	"testing"

	compat "github.com/fastrobots/robots/compat/temoto"
	"github.com/temoto/robotstxt"
)

// BenchmarkTemotoCompat times, per op, what a temoto user does for a host
// it has not seen: parse testdata/realistic.txt, find NamedAgent's group,
// test one path (a different one of the 64 each op). temoto is
// github.com/temoto/robotstxt v1.1.2; compat is ../compat/temoto, its
// drop-in with Google's verdicts, through the same calls.
func BenchmarkTemotoCompat(b *testing.B) {
	body, paths := workload(b)
	b.Run("temoto", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for i := range b.N {
			r, err := robotstxt.FromBytes(body)
			if err != nil {
				b.Fatal(err)
			}
			if r.FindGroup(NamedAgent).Test(paths[i&63]) {
				n++
			}
		}
		sink += n
	})
	b.Run("compat", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for i := range b.N {
			r, err := compat.FromBytes(body)
			if err != nil {
				b.Fatal(err)
			}
			if r.FindGroup(NamedAgent).Test(paths[i&63]) {
				n++
			}
		}
		sink += n
	})
}
