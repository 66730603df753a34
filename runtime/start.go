package runtime

import (
	"math/bits"
	"strings"

	"github.com/fastrobots/robots/internal/word"
)

// PathStart returns the index in rawURL of the path, parameters and query
// that Path returns, or -1 when there are none (Path gives "/"). The part
// begins with '/', '?' or ';' (Path puts a '/' in front of the last two)
// and ends at the first '#' after it or at the end.
func PathStart(rawURL string) int {
	var i int
	switch {
	case strings.HasPrefix(rawURL, "https://"): // most URLs
		i = len("https://")
	case strings.HasPrefix(rawURL, "http://"):
		i = len("http://")
	case strings.HasPrefix(rawURL, "//"):
		return pathStart(rawURL, 2, true)
	default:
		return pathStart(rawURL, 0, true)
	}
	for ; i+8 <= len(rawURL); i += 8 {
		w := word.At(rawURL, i)
		if m := stopBytes(w); m != 0 {
			return stopAt(rawURL, i+bits.TrailingZeros64(m)/8)
		}
	}
	for ; i < len(rawURL); i++ {
		switch rawURL[i] {
		case '/', '?', ';', '#':
			return stopAt(rawURL, i)
		}
	}
	return -1
}

// RootedStart is PathStart when the part Path returns starts there with a
// '/', and -1 otherwise: from it on, a check reads the URL's own bytes in
// place, up to the '#'.
func RootedStart(rawURL string) int {
	i := PathStart(rawURL)
	if i >= 0 && rawURL[i] != '/' {
		return -1
	}
	return i
}

// stopAt returns i, where the authority ends, or -1 when it ends at a '#'.
func stopAt(rawURL string, i int) int {
	if rawURL[i] == '#' {
		return -1
	}
	return i
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// stopBytes returns a word whose lowest set bit is the high bit of the
// first byte of w that is '/', '?', ';' or '#', and zero when none is.
// Higher set bits may be false. '/' (0x2F) and '?' (0x3F) differ in one
// bit, so one test finds both.
func stopBytes(w uint64) uint64 {
	return zeroBytes((w|0x10*lowBits)^('?'*lowBits)) | zeroBytes(w^(';'*lowBits)) | zeroBytes(w^('#'*lowBits))
}

// zeroBytes returns a word with the high bit set of the first zero byte of
// x, and zero when x has none; a borrow may set high bits only above it.
func zeroBytes(x uint64) uint64 { return (x - lowBits) &^ x & highBits }
