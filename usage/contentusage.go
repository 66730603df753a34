package usage

import "strings"

// ParseContentUsage reads the value of a robots.txt Content-Usage line:
// what follows the colon, as draft-ietf-aipref-attach-05 section 3.2
// reads it. The value ends at the first CR, LF or '#'. If it starts with
// '/', the path runs to the first SP or HTAB and the preference follows;
// otherwise there is no path, the whole value is the preference and the
// rule applies to "/". path is the pattern as written (trimmed), not yet
// escaped: the caller escapes it as it escapes Allow and Disallow values
// (EscapePath).
//
// ok is false when the line does not follow the grammar: a path with no
// preference after it, an empty value, or a preference that is not a
// dictionary. The rule still stands with every category Unknown, as the
// vocabulary reads a statement that does not parse; ok is for lint.
func ParseContentUsage(value string) (path string, pref Preference, ok bool) {
	path, stmt, ok := SplitContentUsage(value)
	if !ok {
		return path, Preference{}, false
	}
	pref, ok = ParsePreference(stmt)
	return path, pref, ok
}

// SplitContentUsage cuts the value of a Content-Usage line into its path
// and its statement of preference, as ParseContentUsage reads them,
// without parsing the statement. ok is false when there is no statement:
// an empty value, or a path with nothing after it.
func SplitContentUsage(value string) (path, stmt string, ok bool) {
	if i := strings.IndexAny(value, "\r\n#"); i >= 0 {
		value = value[:i]
	}
	value = strings.Trim(value, " \t")
	path = "/"
	if strings.HasPrefix(value, "/") {
		i := strings.IndexAny(value, " \t")
		if i < 0 {
			return value, "", false
		}
		path, value = value[:i], strings.TrimLeft(value[i:], " \t")
	}
	return path, value, value != ""
}
