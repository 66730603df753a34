package automaton

import "strings"

// CutAtNUL returns s up to its first NUL byte, and whether it held one.
// It is the one statement of the rule "a NUL byte ends the path": Google's
// reference parser hands the path to its matcher as a C string. A Set
// applies it under Options.EndAtNUL.
func CutAtNUL(s string) (string, bool) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i], true
	}
	return s, false
}
