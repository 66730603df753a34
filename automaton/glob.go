package automaton

import "strings"

// glob is a pattern split at its stars, as the segment scanner matches it:
// the path starts with prefix and then holds each piece, in order, each
// found leftmost after the one before (Match's reading); an anchored
// pattern's last piece, or its prefix when it has none, must end the path.
// Pieces are never empty, and a trailing star adds nothing to a prefix
// match, so "x*" and "x*$" are both read as "x".
type glob struct {
	prefix   string   // the bytes before the first star
	pieces   []string // the non-empty runs between stars, in order
	anchored bool     // the last piece (or the prefix, with no piece) must end the path
}

// splitGlob splits expr at its stars; the strings share expr's memory.
func splitGlob(expr string) glob {
	anchored := strings.HasSuffix(expr, "$")
	if anchored {
		expr = expr[:len(expr)-1]
	}
	star := strings.IndexByte(expr, '*')
	if star < 0 {
		return glob{prefix: expr, anchored: anchored}
	}
	g := glob{prefix: expr[:star]}
	rest := expr[star+1:]
	for rest != "" {
		piece := rest
		if i := strings.IndexByte(rest, '*'); i >= 0 {
			piece, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if piece != "" {
			g.pieces = append(g.pieces, piece)
		}
	}
	g.anchored = anchored && !strings.HasSuffix(expr, "*") && len(g.pieces) > 0
	return g
}
