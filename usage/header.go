package usage

import "strings"

// HeaderName is the HTTP field that carries a statement of preference
// about a response's content (draft-ietf-aipref-attach-05 section 2).
const HeaderName = "Content-Usage"

// ParseHeader reads the Content-Usage field of an HTTP message from its
// field lines, as http.Header.Values returns them. Several lines are one
// field joined by commas (RFC 9110 section 5.3), so a key repeated in a
// later line wins as it would within one line. With no line the field is
// absent: every category Unknown and ok true. ok is false when the joined
// value is not a dictionary; every category is then Unknown.
func ParseHeader(lines ...string) (pref Preference, ok bool) {
	switch len(lines) {
	case 0:
		return Preference{}, true
	case 1:
		return ParsePreference(lines[0])
	}
	if joinedLen(lines) > MaxValueBytes {
		return Preference{}, false // ParsePreference's answer, without joining
	}
	return ParsePreference(strings.Join(lines, ", "))
}

// joinedLen returns the length of lines joined by ", ", stopping once it
// passes MaxValueBytes so that the sum cannot overflow.
func joinedLen(lines []string) int {
	n := 0
	for i, l := range lines {
		if i > 0 {
			n += len(", ")
		}
		if n += len(l); n > MaxValueBytes {
			break
		}
	}
	return n
}
