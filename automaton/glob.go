package automaton

import (
	"iter"
	"strings"
)

// Glob is a pattern read once: its key, the literal bytes before its first
// star, which every path it matches starts with; the literal pieces between
// its stars; and whether a final '$' anchors it to the end of the path.
// ReadGlob is the one reading of a pattern's operators: the DFA's
// positions, the segment scanner, Match and Classify here, and the cold
// tier, the cost bound and lint above, take a pattern's parts from a Glob.
// Reference, the definition every fast form is tested against, reads the
// pattern on its own.
type Glob struct {
	// Body is the pattern without its final '$': its bytes are literal but
	// '*', which matches any run of bytes.
	Body string
	// Star is where Body's first '*' is, len(Body) when it has none.
	Star int
	// Anchored is set when a final '$' pins the match to the path's end.
	Anchored bool
}

// ReadGlob reads pattern expr: a '$' that ends it anchors it, and every
// other '$' is a literal byte.
func ReadGlob(expr string) Glob {
	g := Glob{Body: expr}
	if n := len(expr); n > 0 && expr[n-1] == '$' {
		g.Body, g.Anchored = expr[:n-1], true
	}
	switch b := g.Body; {
	case b != "" && b[0] == '*':
		g.Star = 0
	case len(b) > 1 && b[1] == '*': // "/*", the commonest start, without a call
		g.Star = 1
	default:
		if g.Star = strings.IndexByte(b, '*'); g.Star < 0 {
			g.Star = len(b)
		}
	}
	return g
}

// Key returns the literal bytes before the first star.
func (g Glob) Key() string { return g.Body[:g.Star] }

// Tail returns the body from its first star on: "" when it has none.
func (g Glob) Tail() string { return g.Body[g.Star:] }

// Starred reports whether the pattern holds a star.
func (g Glob) Starred() bool { return g.Star < len(g.Body) }

// Literal reports whether the pattern holds no operator: a path matches
// it when it starts with Body.
func (g Glob) Literal() bool { return !g.Starred() && !g.Anchored }

// Pieces yields the non-empty runs of literal bytes between the stars,
// after the key, in order.
func (g Glob) Pieces() iter.Seq[string] {
	return func(yield func(string) bool) {
		for rest := g.Tail(); rest != ""; {
			piece := rest[1:] // past the star
			rest = ""
			if i := strings.IndexByte(piece, '*'); i >= 0 {
				piece, rest = piece[:i], piece[i:]
			}
			if piece != "" && !yield(piece) {
				return
			}
		}
	}
}

// Match reports whether the pattern matches path: a prefix of it, or all
// of it when anchored.
func (g Glob) Match(path string) bool {
	return strings.HasPrefix(path, g.Key()) && g.MatchTail(path[g.Star:])
}

// MatchTail is Match of a path that starts with the key, given the rest of
// it. Pieces are found leftmost-first, which is enough: an earlier end
// leaves the rest of the path a superset of what a later end would. The
// anchor pins the last piece to the end.
func (g Glob) MatchTail(rest string) bool {
	tail := g.Tail()
	if tail == "" {
		return !g.Anchored || rest == ""
	}
	pos := 0
	tail = tail[1:]
	for {
		star := strings.IndexByte(tail, '*')
		if star < 0 {
			break
		}
		i := strings.Index(rest[pos:], tail[:star])
		if i < 0 {
			return false
		}
		pos += i + star
		tail = tail[star+1:]
	}
	if g.Anchored {
		return len(rest)-pos >= len(tail) && strings.HasSuffix(rest, tail)
	}
	return strings.Contains(rest[pos:], tail)
}
