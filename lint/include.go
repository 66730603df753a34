package lint

import "strings"

// covers reports whether pattern s matches every path that pattern r
// matches. Both are patterns as the matcher reads them: '*' matches any
// run of bytes, a final '$' anchors the end, and otherwise a pattern
// matches any path that starts like it.
//
// It is sound: true only when s does cover r. It reads each pattern as a
// whole-path glob (openEnd) and asks whether s matches r's glob taken as
// text, where a '*' of r is a symbol only a '*' of s can absorb. If it
// does, s matches whatever r's stars stand for, since s's stars absorb it.
func covers(s, r string) bool {
	return globCovers(openEnd(s), openEnd(r))
}

// openEnd turns a prefix pattern into a whole-path glob: a final '$' is
// dropped, and a pattern without one gets a final '*'.
func openEnd(p string) string {
	if strings.HasSuffix(p, "$") {
		return p[:len(p)-1]
	}
	return p + "*"
}

// globCovers matches glob p against t, a glob taken as text. It is the
// usual star matcher, backtracking to the last star, except that a '*' in
// t matches only a '*' of p. Time is O(len(p)·len(t)) at worst, linear in
// the usual case.
func globCovers(p, t string) bool {
	pi, ti := 0, 0
	star, mark := -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case pi < len(p) && p[pi] == t[ti]:
			pi++
			ti++
		case star >= 0:
			pi, mark = star+1, mark+1
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// literalPrefix returns the part of a glob before its first '*': any text
// s covers starts with it.
func literalPrefix(glob string) string {
	if i := strings.IndexByte(glob, '*'); i >= 0 {
		return glob[:i]
	}
	return glob
}
