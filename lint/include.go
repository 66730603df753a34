package lint

import (
	"strings"

	"github.com/fastrobots/robots/automaton"
)

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
	if g := automaton.ReadGlob(p); g.Anchored {
		return g.Body
	}
	return p + "*"
}

// globCovers matches glob p against t, a glob taken as text, where a '*'
// of t is a symbol only a '*' of p can absorb. The runs of bytes between
// p's stars hold no '*', so they never match one of t's, and the usual
// greedy reading of a glob decides: the run before p's first star starts
// t, the run after its last star ends it, and each run between is taken
// where it first occurs after the one before; taking it later would only
// leave less room for the rest. Time is linear in the two lengths.
func globCovers(p, t string) bool {
	first := strings.IndexByte(p, '*')
	if first < 0 {
		return p == t
	}
	last := strings.LastIndexByte(p, '*')
	head, tail := p[:first], p[last+1:]
	if len(t) < len(head)+len(tail) || !strings.HasPrefix(t, head) || !strings.HasSuffix(t, tail) {
		return false
	}
	t = t[len(head) : len(t)-len(tail)]
	// mid is p from its first star to its last, each run led by its star.
	for mid := p[first:last]; mid != ""; {
		run, _, _ := strings.Cut(mid[1:], "*")
		i := strings.Index(t, run)
		if i < 0 {
			return false
		}
		t, mid = t[i+len(run):], mid[1+len(run):]
	}
	return true
}

// literalPrefix returns the part of a glob before its first '*': any text
// s covers starts with it.
func literalPrefix(glob string) string {
	if i := strings.IndexByte(glob, '*'); i >= 0 {
		return glob[:i]
	}
	return glob
}
