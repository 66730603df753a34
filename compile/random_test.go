package compile

import (
	"math/rand/v2"
	"strings"
)

// randomBytes returns n bytes drawn from alphabet.
func randomBytes(r *rand.Rand, alphabet string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}
