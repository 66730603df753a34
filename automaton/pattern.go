package automaton

import "strings"

// Pattern is one rule of a set.
type Pattern struct {
	Expr     string // the pattern, with '*' and a final '$' as operators
	Allow    bool
	Priority int32 // a longer match wins; Google uses len(Expr)
	ID       int32 // the caller's name for the rule, returned by Set.Decide
}

// Beats reports whether p wins over q when both match: the higher
// priority wins, and allow wins a tie (RFC 9309 section 2.2.2). It is the
// one definition of the rule, used by ranking, explanations and lint.
func (p Pattern) Beats(q Pattern) bool {
	if p.Priority != q.Priority {
		return p.Priority > q.Priority
	}
	return p.Allow && !q.Allow
}

// Match reports whether pattern matches a prefix of path. Pieces between
// stars are found leftmost-first, which is enough: an earlier end leaves
// the rest of the path a superset of what a later end would. A final '$'
// pins the last piece to the end.
func Match(pattern, path string) bool {
	if anchored := strings.HasSuffix(pattern, "$"); anchored {
		return MatchAnchored(pattern[:len(pattern)-1], path)
	}
	return match(pattern, path, false)
}

// MatchAnchored reports whether pattern+"$" matches path: whether pattern
// matches all of path. It builds no string.
func MatchAnchored(pattern, path string) bool { return match(pattern, path, true) }

func match(pattern, path string, anchored bool) bool {
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		if anchored {
			return path == pattern
		}
		return strings.HasPrefix(path, pattern)
	}
	if !strings.HasPrefix(path, pattern[:star]) {
		return false
	}
	pos := star
	pattern = pattern[star+1:]
	for {
		star = strings.IndexByte(pattern, '*')
		if star < 0 {
			break
		}
		i := strings.Index(path[pos:], pattern[:star])
		if i < 0 {
			return false
		}
		pos += i + star
		pattern = pattern[star+1:]
	}
	if anchored {
		return len(path)-pos >= len(pattern) && strings.HasSuffix(path, pattern)
	}
	return strings.Contains(path[pos:], pattern)
}
