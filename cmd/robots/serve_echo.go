package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxEchoBytes bounds the bytes of a request's value an error answer
// quotes: enough to recognise the value, while a 1 MiB field does not
// come back whole.
const maxEchoBytes = 64

// quoteInput returns s quoted for an error message, cut after
// maxEchoBytes bytes (at a rune's start) and then followed by "..." and
// its full length.
func quoteInput(s string) string {
	if len(s) <= maxEchoBytes {
		return strconv.Quote(s)
	}
	cut := maxEchoBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// shortenEcho returns msg, an error's message that quotes input whole (as
// %q does), with the quoted input cut as quoteInput cuts it.
func shortenEcho(msg, input string) string {
	if len(input) <= maxEchoBytes {
		return msg
	}
	return strings.ReplaceAll(msg, strconv.Quote(input), quoteInput(input))
}
