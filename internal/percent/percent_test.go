package percent

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDigits(t *testing.T) {
	for v := range 16 {
		lower := "0123456789abcdef"[v]
		assert.True(t, IsDigit(Upper[v]))
		assert.True(t, IsDigit(lower))
		assert.Equal(t, byte(v), Value(Upper[v]))
		assert.Equal(t, byte(v), Value(lower))
	}
	for _, c := range []byte("gG/:@`%") {
		assert.False(t, IsDigit(c), string(c))
	}
}

func TestEscapeEveryByte(t *testing.T) {
	for c := range 256 {
		want := "%" + string(Upper[c>>4]) + string(Upper[c&15])
		assert.Equal(t, want, Escape(byte(c)))
	}
	assert.Equal(t, 0.0, testing.AllocsPerRun(10, func() { _ = Escape(0xE9) }))
}

func TestIsEscape(t *testing.T) {
	for _, tt := range []struct {
		s    string
		i    int
		want bool
	}{
		{"%41", 0, true}, {"%4g", 0, false}, {"%4", 0, false}, {"a%aF", 1, true}, {"%%41", 0, false}, {"x", 0, false},
	} {
		assert.Equal(t, tt.want, IsEscape(tt.s, tt.i), "%q at %d", tt.s, tt.i)
	}
}
