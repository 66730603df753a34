package cli

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLineReaderLimit(t *testing.T) {
	const max = 8
	tests := []struct {
		name string
		in   string
		want []string // lines; "!" before the kept prefix of one too long
	}{
		{"exactly the limit", "12345678\n", []string{"12345678"}},
		{"exactly the limit with CRLF", "12345678\r\n", []string{"12345678"}},
		{"exactly the limit at the end", "12345678", []string{"12345678"}},
		{"one byte over", "123456789\nok", []string{"!12345678", "ok"}},
		{"one byte over with CRLF", "123456789\r\nok", []string{"!12345678", "ok"}},
		{"far over", strings.Repeat("x", 5000) + "\nok\n", []string{"!xxxxxxxx", "ok"}},
		{"far over at the end", strings.Repeat("x", 5000), []string{"!xxxxxxxx"}},
		{"empty lines are lines", "\n\r\n\n", []string{"", "", ""}},
		{"a final CR ends a line", "a\r", []string{"a"}},
		{"nothing", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr := NewLineReader(strings.NewReader(tt.in), max)
			var got []string
			for {
				line, err := lr.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if errors.Is(err, api.ErrLineTooLong) {
					got = append(got, "!"+string(line))
					continue
				}
				require.NoError(t, err)
				got = append(got, string(line))
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, len(tt.want), lr.Line())
		})
	}
}

// TestLineReaderRestReadsTheLongLine checks that, for a line longer than
// the limit, the prefix next returns and what rest reads are the line
// without its ending, whether rest is read or not, and that a line rest
// did not read is skipped.
func TestLineReaderRestReadsTheLongLine(t *testing.T) {
	const max = 8
	long := strings.Repeat("0123456789", 300_000) // past the reader's buffer
	tests := []struct {
		name, line, end string
	}{
		{"one byte over", "123456789", "\n"},
		{"two bytes over", "1234567890", "\n"},
		{"three bytes over, CRLF", "12345678901", "\r\n"},
		{"far over", long, "\n"},
		{"far over, CRLF", long, "\r\n"},
		{"far over at the end", long, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, readRest := range []bool{true, false} {
				in := tt.line + tt.end + "next\n"
				if tt.end == "" {
					in = tt.line
				}
				lr := NewLineReader(strings.NewReader(in), max)
				prefix, err := lr.Next()
				require.ErrorIs(t, err, api.ErrLineTooLong)
				assert.Equal(t, tt.line[:max], string(prefix))
				if readRest {
					rest, err := io.ReadAll(lr.Rest())
					require.NoError(t, err)
					assert.Equal(t, tt.line, string(prefix)+strings.TrimSuffix(string(rest), "\r"))
				}
				next, err := lr.Next()
				if tt.end == "" {
					assert.ErrorIs(t, err, io.EOF)
					continue
				}
				require.NoError(t, err)
				assert.Equal(t, "next", string(next))
				assert.Equal(t, 2, lr.Line())
			}
		})
	}
}
