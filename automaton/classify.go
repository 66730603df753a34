package automaton

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
	"strings"
)

// Classify's bounds on the states it explores, the distinct (positions,
// best) states of the patterns over every path: a set of patterns with
// many stars can have exponentially many, and past either bound the
// answer is undecided rather than slow. MaxClassifyStates counts them;
// MaxClassifyBytes counts the positions they hold, 8 bytes each (the state
// kept to step from and its key among those seen), since one state of a
// file of thousands of rules holds thousands. Real files need a few
// hundred states, and most need none (patternWitnesses); of 28,515 real
// files, none passes a bound.
const (
	MaxClassifyStates = 1 << 16
	MaxClassifyBytes  = 16 << 20
)

// Classification says which verdicts the paths get: every path that
// starts with '/' and holds neither a '#' (a fragment is not part of the
// path) nor a NUL byte.
type Classification struct {
	// Allowed and Disallowed are paths that get each verdict, "" when no
	// path does: when the patterns' own paths show both verdicts, the
	// shortest of those (patternWitnesses); otherwise the shortest of all
	// paths, the least in byte order among them.
	Allowed, Disallowed string
	// Decided is false when the states passed MaxClassifyStates or
	// MaxClassifyBytes before every path was read: then an empty witness
	// means "none found", not "none exists".
	Decided bool
}

// pathBytes are the bytes a witness path is written with, most readable
// first: each byte class is represented by the first of them it holds.
const pathBytes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/.-_~!$&'()*+,;=:@?%\"<>[\\]^`{|} "

// Classify returns a witness of each verdict some path gets, exactly, not
// by sampling. The patterns' own paths are tried first; when they do not
// show both verdicts, every path's state in the patterns is explored,
// breadth first from "/" over one byte of each byte class: two paths in
// one state get the same verdict whatever follows, and a byte class
// stands for all its bytes. The exploration holds the set's mutex.
func (s *Set) Classify() Classification {
	return s.ClassifyWithin(MaxClassifyStates, MaxClassifyBytes)
}

// ClassifyWithin is Classify within other bounds than the default ones:
// at most maxStates states, holding at most maxBytes bytes of positions.
func (s *Set) ClassifyWithin(maxStates, maxBytes int) Classification {
	if c, ok := s.patternWitnesses(); ok {
		return c
	}
	return s.explore(maxStates, maxBytes)
}

// ClassifyPatterns is Classify without a Set: it decides the class of
// patterns when their own paths show both verdicts within referenceChecks
// matches by Reference, which needs nothing built. ok is false otherwise,
// and then Classify, on a Set of the same patterns, decides. When ok, the
// Classification is the one Classify returns.
func ClassifyPatterns(patterns []Pattern) (c Classification, ok bool) {
	return patternWitnesses(patterns, nil)
}

// patternWitnesses decides the class when the patterns' own paths show
// both verdicts, in s.patterns.
func (s *Set) patternWitnesses() (Classification, bool) {
	return patternWitnesses(s.patterns, func(path string) (Pattern, bool) { return s.result(s.scan(path, "", "")) })
}

// patternWitnesses decides the class when the patterns' own paths show
// both verdicts: "/" and each pattern read with its stars matching nothing
// and its '$' dropped. Most real files are told apart so, in a few checks,
// where reading every path would step through thousands of states of a
// file of many stars. Each witness is the shortest, then the least in byte
// order, of those paths that get its verdict; it need not be the shortest
// of all paths. The first checks are Reference's, referenceChecks pattern
// matches in all; later ones are scan's, or, without scan, undecided.
func patternWitnesses(patterns []Pattern, scan func(path string) (Pattern, bool)) (Classification, bool) {
	paths := make([]string, 1, len(patterns)+1)
	paths[0] = "/"
	var b []byte
	for _, p := range patterns {
		b = append(b[:0], '/')
		expr := strings.TrimSuffix(p.Expr, "$")
		if strings.HasPrefix(expr, "/") {
			b = b[:0]
		}
		for i := 0; i < len(expr); i++ {
			if expr[i] != '*' {
				b = append(b, expr[i])
			}
		}
		if !bytes.ContainsAny(b, "#\x00") { // not a path: Classify's paths hold neither
			paths = append(paths, string(b))
		}
	}
	// Shortest first, so that the first path of each verdict is its
	// witness and the checks stop there: most files need two or three.
	slices.SortFunc(paths, func(x, y string) int {
		return cmp.Or(cmp.Compare(len(x), len(y)), strings.Compare(x, y))
	})
	var c Classification
	budget := referenceChecks
	for _, path := range paths {
		var p Pattern
		var ok bool
		// A few checks by the reference, which needs nothing built; past
		// them the scanner, linear in the path whatever the patterns. Not
		// the DFA: these paths are one-offs, and building states for them
		// would cost more than reading them.
		switch {
		case budget >= len(patterns):
			budget -= len(patterns)
			p, ok = Reference(patterns, path)
		case scan == nil:
			return c, false
		default:
			p, ok = scan(path)
		}
		if !ok || p.Allow {
			if c.Allowed == "" {
				c.Allowed = path
			}
		} else if c.Disallowed == "" {
			c.Disallowed = path
		}
		if c.Allowed != "" && c.Disallowed != "" {
			c.Decided = true
			return c, true
		}
	}
	return c, false
}

// referenceChecks is how many pattern matches patternWitnesses makes with
// Reference before it turns to the scanner, which costs building.
const referenceChecks = 4096

// explore decides the class by reading every path, breadth first: the
// witnesses are the shortest paths of each verdict.
func (s *Set) explore(maxStates, maxBytes int) Classification {
	d := s.dfa
	p := d.prog
	var rep [256]int16 // the byte read for each class, -1 for none
	for i := range rep {
		rep[i] = -1
	}
	var classes []uint8
	try := func(b byte) {
		if c := p.class[b]; rep[c] < 0 {
			rep[c] = int16(b)
			classes = append(classes, c)
		}
	}
	for i := 0; i < len(pathBytes); i++ {
		try(pathBytes[i])
	}
	for b := 1; b < 256; b++ {
		if b != '#' {
			try(byte(b))
		}
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	type node struct {
		set  []int32
		best int32
		path string
	}
	set, best := d.initialSet()
	set, best = d.step(append([]int32(nil), set...), best, '/') // step's input must not be its scratch
	queue := []node{{append([]int32(nil), set...), best, "/"}}
	seen := map[string]bool{stateKey(set, best): true}
	held := 8 * len(set)
	var c Classification
	var named [256]bool // per node: the classes its literal positions read
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if d.allows(d.endVerdict(n.set, n.best)) {
			if c.Allowed == "" {
				c.Allowed = n.path
			}
		} else if c.Disallowed == "" {
			c.Disallowed = n.path
		}
		if c.Allowed != "" && c.Disallowed != "" {
			c.Decided = true
			return c
		}
		if d.settles(n.set, n.best) {
			continue // every longer path gets n's verdict
		}
		// Only the classes of the set's literal positions step differently:
		// every other class keeps just the stars, so the first of them in
		// reading order stands for all, and the witnesses stay the same.
		for _, q := range n.set {
			if p.kind[q] == litPos {
				named[p.class[p.lit[q]]] = true
			}
		}
		other := false
		for _, cl := range classes {
			if !named[cl] {
				if other {
					continue
				}
				other = true
			}
			b := byte(rep[cl])
			next, nb := d.step(n.set, n.best, b)
			k := stateKey(next, nb)
			if seen[k] {
				continue
			}
			if held += 8 * len(next); len(seen) >= maxStates || held > maxBytes {
				return c
			}
			seen[k] = true
			queue = append(queue, node{append([]int32(nil), next...), nb, n.path + string(b)})
		}
		for _, q := range n.set {
			named[p.class[p.lit[q]]] = false
		}
	}
	c.Decided = true
	return c
}

// stateKey encodes a state for the set of those seen.
func stateKey(set []int32, best int32) string {
	b := make([]byte, 0, 4*(len(set)+1))
	b = binary.LittleEndian.AppendUint32(b, uint32(best))
	for _, q := range set {
		b = binary.LittleEndian.AppendUint32(b, uint32(q))
	}
	return string(b)
}
