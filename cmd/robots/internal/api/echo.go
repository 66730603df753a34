package api

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxEchoBytes bounds the bytes of a request's value an error answer
// quotes: enough to recognise the value, while a 1 MiB field does not
// come back whole.
const MaxEchoBytes = 64

// QuoteInput returns s quoted for an error message, cut after
// MaxEchoBytes bytes (at a rune's start) and then followed by "..." and
// its full length.
func QuoteInput(s string) string {
	if len(s) <= MaxEchoBytes {
		return strconv.Quote(s)
	}
	cut := MaxEchoBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// ShortenEcho returns msg, an error's message that quotes input whole (as
// %q does), with the quoted input cut as QuoteInput cuts it.
func ShortenEcho(msg, input string) string {
	if len(input) <= MaxEchoBytes {
		return msg
	}
	return strings.ReplaceAll(msg, strconv.Quote(input), QuoteInput(input))
}
