package compile

// Mode selects between Google's lenient reading and a strict RFC 9309 one.
type Mode uint8

const (
	// Google reaches the verdict of Google's open-source reference parser.
	Google Mode = iota
	// RFC follows RFC 9309 to the letter: exact field names, a colon on every
	// directive, no index.html rule, and percent-encoding normalised on both
	// sides before comparing (RFC 9309 section 2.2.2).
	RFC
)

// String returns "google" or "rfc".
func (m Mode) String() string {
	if m == RFC {
		return "rfc"
	}
	return "google"
}
