package automaton

import (
	"bytes"
	"cmp"
	"container/heap"
	"encoding/binary"
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
	// path does: when the patterns' own paths show both verdicts within
	// the checks patternWitnesses makes, the shortest of those; otherwise
	// the shortest of all paths, the least in byte order among them.
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
	return classify(s.patterns, func() *Set { return s }, maxStates, maxBytes)
}

// ClassifyPatterns is Classify on NewSet(patterns, ...), which set returns,
// called only when the Set is needed: most sets of patterns are decided by
// their own paths within referenceBudget's checks by Reference, which
// needs nothing built.
func ClassifyPatterns(patterns []Pattern, set func() *Set) Classification {
	return classify(patterns, set, MaxClassifyStates, MaxClassifyBytes)
}

// classify is Classify's one statement: the patterns' own paths first,
// then, when they do not show both verdicts, every path explored. set
// gives the Set of the patterns, asked for once and only when a check or
// the exploration needs it.
func classify(patterns []Pattern, set func() *Set, maxStates, maxBytes int) Classification {
	var s *Set
	built := func() *Set {
		if s == nil {
			s = set()
		}
		return s
	}
	if c, ok := patternWitnesses(patterns, func(path string) (Pattern, bool) { return built().scanPath(path) }); ok {
		return c
	}
	return built().explore(maxStates, maxBytes)
}

// scanPath is the pattern that decides path, read by the scanner.
func (s *Set) scanPath(path string) (Pattern, bool) { return s.result(s.scan(path, "", "")) }

// patternWitnesses decides the class when the patterns' own paths show
// both verdicts: "/" and each pattern read with its stars matching nothing
// and its '$' dropped. Most real files are told apart so, in a few checks,
// where reading every path would step through thousands of states of a
// file of many stars. Each witness is the shortest, then the least in byte
// order, of those paths that get its verdict; it need not be the shortest
// of all paths. The first checks are Reference's, within referenceBudget;
// later ones are scan's, within ownPathScanBytes. A path met twice is
// checked once.
func patternWitnesses(patterns []Pattern, scan func(path string) (Pattern, bool)) (Classification, bool) {
	paths := ownPaths{bytes: make([]byte, 0, 1+len(patterns)*8), ends: make([]int32, 0, 1+len(patterns))}
	paths.add("/")
	for _, p := range patterns {
		g := ReadGlob(p.Expr)
		if !strings.HasPrefix(g.Body, "/") {
			paths.bytes = append(paths.bytes, '/')
		}
		paths.bytes = append(paths.bytes, g.Key()...)
		for piece := range g.Pieces() {
			paths.bytes = append(paths.bytes, piece...)
		}
		paths.end()
	}
	// Shortest first, so that the first path of each verdict is its
	// witness and the checks stop there: most files need two or three, so
	// the paths are taken from a heap rather than all sorted.
	heap.Init(&paths)
	var c Classification
	ref := newReferenceBudget(patterns)
	scans := ref.scans()
	var last []byte
	for paths.Len() > 0 {
		raw := paths.raw(heap.Pop(&paths).(int32))
		if last != nil && bytes.Equal(raw, last) {
			continue // the same path as the last, which got its verdict
		}
		last = raw
		path := string(raw)
		var p Pattern
		var ok bool
		// A few checks by the reference, which needs nothing built; past
		// them the scanner. Not the DFA: these paths are one-offs, and
		// building states for them would cost more than reading them.
		if ref.take(len(path)) {
			p, ok = Reference(patterns, path)
		} else if scans > 0 {
			scans--
			p, ok = scan(path)
		} else {
			return c, false // the exploration decides
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

// ownPaths are the patterns' own paths, written one after another in
// bytes, path i ending at ends[i]; as a heap (container/heap) it gives
// their numbers shortest first, then least in byte order.
type ownPaths struct {
	bytes []byte
	ends  []int32
	heap  []int32
}

func (o *ownPaths) add(path string) {
	o.bytes = append(o.bytes, path...)
	o.end()
}

// end ends the path written since the last, unless it is no path:
// Classify's paths hold neither '#' nor NUL.
func (o *ownPaths) end() {
	start := int32(0)
	if n := len(o.ends); n > 0 {
		start = o.ends[n-1]
	}
	if bytes.ContainsAny(o.bytes[start:], "#\x00") {
		o.bytes = o.bytes[:start]
		return
	}
	o.heap = append(o.heap, int32(len(o.ends)))
	o.ends = append(o.ends, int32(len(o.bytes)))
}

func (o *ownPaths) raw(i int32) []byte {
	start := int32(0)
	if i > 0 {
		start = o.ends[i-1]
	}
	return o.bytes[start:o.ends[i]]
}

func (o *ownPaths) Len() int { return len(o.heap) }
func (o *ownPaths) Less(i, j int) bool {
	x, y := o.raw(o.heap[i]), o.raw(o.heap[j])
	return cmp.Or(cmp.Compare(len(x), len(y)), bytes.Compare(x, y)) < 0
}
func (o *ownPaths) Swap(i, j int) { o.heap[i], o.heap[j] = o.heap[j], o.heap[i] }
func (o *ownPaths) Push(x any)    { o.heap = append(o.heap, x.(int32)) }
func (o *ownPaths) Pop() any {
	x := o.heap[len(o.heap)-1]
	o.heap = o.heap[:len(o.heap)-1]
	return x
}

// referenceBudget bounds the work of patternWitnesses' checks by
// Reference, in the steps Matches takes: a pattern without a star takes
// at most one step a byte, one with a star at most one a byte for each
// end it holds, len(path)+1: counted in matches, a file of a few long
// patterns of many stars would cost seconds a check. The budget is
// referenceSteps, or referencePasses checks of a path of one byte when
// that is more: checking a few paths by Reference costs less than
// building a Set of thousands of patterns, which takes the time of tens
// to hundreds of such checks.
//
// The steps are counted in int64: on a 32-bit int, starred*(len(path)+1)
// of a 500 KiB file overflows.
type referenceBudget struct {
	left int64
	// plain and starred are the bytes of the patterns without and with
	// a star: a check of path takes plain+starred*(len(path)+1) steps.
	plain, starred int64
}

const (
	referenceSteps  = 1 << 17
	referencePasses = 8
)

// ownPathScanBytes bounds the work of patternWitnesses' checks with the
// scanner, past referenceBudget, in the patterns' bytes: a scan may cost
// them all (scanner), so a file of thousands of own paths that all get
// one verdict would cost their product, seconds for 500 KiB of short
// starred lines. Past the bound the exploration decides, within its own
// bounds. minOwnPathScans paths are scanned whatever the patterns' size;
// real files that their own paths decide need two or three checks.
const (
	ownPathScanBytes = 64 << 20
	minOwnPathScans  = 64
)

// scans is how many own paths patternWitnesses may check with the
// scanner.
func (b *referenceBudget) scans() int {
	return int(max(minOwnPathScans, ownPathScanBytes/max(1, b.plain+b.starred)))
}

func newReferenceBudget(patterns []Pattern) referenceBudget {
	var b referenceBudget
	for _, p := range patterns {
		if ReadGlob(p.Expr).Starred() {
			b.starred += int64(len(p.Expr))
		} else {
			b.plain += int64(len(p.Expr))
		}
	}
	b.left = max(referenceSteps, referencePasses*(b.plain+2*b.starred))
	return b
}

// take spends the steps of a check of a path of n bytes, and reports
// whether they were left.
func (b *referenceBudget) take(n int) bool {
	cost := b.plain + b.starred*(int64(n)+1)
	if cost > b.left {
		b.left = 0 // paths come shortest first: no later one fits
		return false
	}
	b.left -= cost
	return true
}

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
			queue = append(queue, node{append([]int32(nil), next...), nb, n.path + string([]byte{b})}) // the byte, not the rune it would convert to
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
