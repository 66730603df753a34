package automaton

import (
	"strings"

	"github.com/fastrobots/robots/internal/alloc"
)

// A position is a place in one pattern: before one of its bytes, or at its
// end. Positions are numbered pattern by pattern in rank order, so those
// of the patterns ranked below pattern i are the suffix from prog.off[i].
type posKind uint8

const (
	litPos  posKind = iota // before a literal byte: advances on that byte
	starPos                // before a '*': loops on any byte, and may skip ahead
	endPos                 // after the last byte: the pattern has matched
)

// prog is the position automaton (a Glushkov-style NFA) of ranked
// patterns. Runs of '*' are folded into one, so the closure of a position
// is itself plus, for a star, the position after it.
type prog struct {
	patterns []Pattern // ranked: index 0 wins over every other
	anchored []bool    // per pattern: ends in '$', so matches only at the end
	off      []int32   // per pattern: its first position; off[len(patterns)] is the total

	kind []posKind // per position
	lit  []byte    // per position: the literal byte of a litPos
	pat  []int32   // per position: the pattern it belongs to

	// class maps bytes no pattern names to class 0, and every literal byte
	// to its own; '*' is never a literal, so a class fits a byte.
	class  [256]uint8
	nclass int
	// nulClass is byte 0's own class when a NUL ends the input, else -1.
	nulClass int32
}

func compileProg(ranked []Pattern, endAtNUL bool) *prog {
	p := &prog{patterns: ranked, anchored: make([]bool, len(ranked)), off: make([]int32, len(ranked)+1), nulClass: -1}
	n := 0
	for _, pt := range ranked {
		n += len(pt.Expr) + 1 // at most: folding stars and dropping '$' only shorten
	}
	p.kind, p.lit, p.pat = make([]posKind, 0, n), make([]byte, 0, n), make([]int32, 0, n)
	var literal [256]bool
	for i, pt := range ranked {
		g := ReadGlob(pt.Expr)
		expr := foldStars(g.Body)
		p.anchored[i] = g.Anchored
		p.off[i] = int32(len(p.kind))
		for j := 0; j < len(expr); j++ {
			k := litPos
			if expr[j] == '*' {
				k = starPos
			} else {
				literal[expr[j]] = true
			}
			p.kind, p.lit, p.pat = append(p.kind, k), append(p.lit, expr[j]), append(p.pat, int32(i))
		}
		p.kind, p.lit, p.pat = append(p.kind, endPos), append(p.lit, 0), append(p.pat, int32(i))
	}
	p.off[len(ranked)] = int32(len(p.kind))
	p.nclass = 1
	literal[0] = literal[0] || endAtNUL
	for b := range 256 {
		if literal[b] {
			p.class[b] = uint8(p.nclass)
			p.nclass++
		}
	}
	if endAtNUL {
		p.nulClass = int32(p.class[0])
	}
	return p
}

func (p *prog) bytes() int {
	return alloc.SizeOf[prog]() + cap(p.anchored) + 4*cap(p.off) + cap(p.kind) + cap(p.lit) + 4*cap(p.pat)
}

// foldStars replaces every run of '*' by one '*': they match the same.
func foldStars(expr string) string {
	if !strings.Contains(expr, "**") {
		return expr
	}
	var b strings.Builder
	for i := 0; i < len(expr); i++ {
		if expr[i] == '*' && i > 0 && expr[i-1] == '*' {
			continue
		}
		b.WriteByte(expr[i])
	}
	return b.String()
}

func (p *prog) npos() int32 { return int32(len(p.kind)) }

func (p *prog) matchesOn(q int32, c byte) bool {
	return p.kind[q] == litPos && p.lit[q] == c
}

// closureNext returns the position a star at q may skip to, or -1.
func (p *prog) closureNext(q int32) int32 {
	if p.kind[q] == starPos {
		return q + 1
	}
	return -1
}

// freeMatch reports whether q ends a pattern that matches whatever follows.
func (p *prog) freeMatch(q int32) bool {
	return p.kind[q] == endPos && !p.anchored[p.pat[q]]
}

// endMatch reports whether q ends a '$' pattern, which needs the input to end.
func (p *prog) endMatch(q int32) bool {
	return p.kind[q] == endPos && p.anchored[p.pat[q]]
}
