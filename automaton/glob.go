package automaton

import "strings"

// glob is a pattern split at its stars, the form the segment scanner
// (scan.go) matches: the pattern matches a path when the path starts with
// prefix and then holds each piece, in order and without overlap, each
// found at its leftmost place after the one before (Match's reading); an
// anchored pattern's last piece, or its prefix when it has no piece, must
// moreover end the path.
//
// Pieces are never empty: runs of stars fold into one, and a trailing star
// adds nothing to a match of a prefix, so "x*" is read as "x" and "x*$" as
// "x" too (a star before the end matches the rest of the path whatever it
// is). Only a final '$' anchors; a '$' elsewhere is a literal byte.
type glob struct {
	prefix   string   // the bytes before the first star
	pieces   []string // the non-empty runs between stars, in order
	anchored bool     // the last piece (or the prefix, with no piece) must end the path
}

// splitGlob splits expr at its stars. The strings it returns share expr's
// memory.
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
	// The last piece is anchored only if no star follows it.
	g.anchored = anchored && !strings.HasSuffix(expr, "*") && len(g.pieces) > 0
	return g
}
