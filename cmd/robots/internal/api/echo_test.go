package api

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuoteInput(t *testing.T) {
	atLimit := strings.Repeat("a", MaxEchoBytes)
	for _, tt := range []struct{ in, want string }{
		{"bing", `"bing"`},
		{"a\nb", `"a\nb"`},
		{atLimit, `"` + atLimit + `"`},
		{atLimit + "b", `"` + atLimit + fmt.Sprintf(`"... (%d bytes)`, MaxEchoBytes+1)},
		// A rune across the cut is left out whole, not split.
		{atLimit[1:] + "é" + "z", `"` + atLimit[1:] + fmt.Sprintf(`"... (%d bytes)`, MaxEchoBytes+2)},
	} {
		assert.Equal(t, tt.want, QuoteInput(tt.in), tt.in)
	}
}
