package word

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAtIsLoadFrom checks At against Load of the rest of the string at
// every index that has eight bytes, and that it refuses one that has not.
func TestAtIsLoadFrom(t *testing.T) {
	s := "\x00\x01user-agent: *\xff\x80#%\r\n"
	for i := 0; i+8 <= len(s); i++ {
		want := uint64(0)
		for k := 7; k >= 0; k-- {
			want = want<<8 | uint64(s[i+k])
		}
		assert.Equal(t, want, At(s, i), "at %d", i)
		assert.Equal(t, Load(s[i:]), At(s, i), "at %d", i)
	}
	var w uint64
	assert.Panics(t, func() { w = At(s, len(s)-7) })
	assert.Panics(t, func() { w = At(s, -1) })
	assert.Zero(t, w)
}
