package hex

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
