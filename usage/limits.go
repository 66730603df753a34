package usage

// The limits below bound the work and memory of a parse. Each is at least
// what RFC 9651 section 3 requires a parser to support, so a value within
// them is read in full; a value past one is treated as a dictionary that
// does not parse (every preference Unknown), never cut.
const (
	// MaxValueBytes is the longest value a parse reads. A robots.txt line
	// is shorter (robots.MaxLineBytes), an HTTP field rarely longer.
	MaxValueBytes = 16 << 10
	// MaxMembers is the most members a dictionary may hold, duplicates
	// counted (RFC 9651 requires at least 1024).
	MaxMembers = 1024
	// MaxInnerListMembers is the most items an inner list may hold (RFC
	// 9651 requires at least 256).
	MaxInnerListMembers = 256
	// MaxParams is the most parameters one item or inner list may carry
	// (RFC 9651 requires at least 256).
	MaxParams = 256
	// MaxSignalEntries is the most comma-separated entries a
	// Content-Signal value may hold; the entries past it are ignored and
	// counted as malformed.
	MaxSignalEntries = 64
	// MaxSignalOther is the most unknown Content-Signal entries kept in
	// Signal.Other; the ones past it are counted, not kept.
	MaxSignalOther = 16
)
