package automaton

import (
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/fastrobots/robots/internal/alloc"
)

// scanner decides a path against the ranked patterns without a DFA, once
// the DFA's budget is spent. Each pattern is read as a Glob (glob.go): its
// key and then its pieces found leftmost-first. At each byte of the path:
//
//   - Prefixes: the range of the patterns, sorted by prefix, whose prefix
//     extends what was read narrows by binary search. A pattern whose
//     prefix has just been read begins: it matches, or waits for a piece.
//   - Pieces: an Aho–Corasick automaton of the distinct pieces (trie.go)
//     tells which pieces end here. Each piece has a queue of the patterns
//     waiting for it; a pattern that began waiting at q takes the first
//     occurrence that ends at or after q+len(piece), Match's leftmost-first
//     reading, so the queue is popped while its head is eligible. A queue
//     whose head is not yet eligible sleeps on a timing wheel, so that no
//     byte tests it in vain. A pattern whose last piece is anchored waits
//     on a list, checked once at the end of the path.
//   - Priority: waiting patterns that rank below the best match are
//     dropped; once none waits and no prefix is being read, the pass stops.
//
// Cost: a byte costs one Aho–Corasick step (amortised constant) and
// O(log2(P) + L/64) word tests over the heavy-path runs of trie.go, where
// P is the number of distinct pieces and L the most pieces that can end at
// one byte. Those are nested suffixes of one another, so L(L+1)/2 is at
// most the pieces' bytes (L ≤ 1,011 for 500 KiB of them). Every other
// cost is paid at most once per piece of a pattern, so an n-byte path
// costs O(n·(log2(P) + L/64) + the patterns' bytes), whatever they are.
//
// Memory (Stats.ScanBytes, Stats.ScanScratchBytes) is linear in the
// patterns' bytes; TestScannerBytesAreWhatItHolds bounds the worst case,
// many short patterns of short pieces ("/*xyz").
type scanner struct {
	patterns []Pattern // ranked, shared with the Set
	none     int32     // the verdict "no pattern matched": len(patterns)

	plen     []int32 // per pattern: its prefix is patterns[i].Expr[:plen[i]]
	first    []int32 // per pattern: its first step
	steps    []int32 // what each pattern does after its prefix, pattern after pattern (see step)
	byPrefix []int32 // the patterns, sorted by prefix, then by rank

	trie *acTrie
	// wheel is the slots of a check's wheel: a queue sleeps at most a
	// piece's length ahead.
	wheel int
	pool  sync.Pool // *scanScratch

	tableBytes, scratchBytes int
}

// A step is what a pattern does next: a piece p ≥ 0 to wait for;
// stepMatch, it has matched; -2-p, its last piece p must end the path;
// stepEnd, its prefix must end the path.
const (
	stepMatch int32 = -1
	stepEnd   int32 = math.MinInt32
)

// scanScratch is the state of one check, reused through the pool. Between
// checks every queue is empty and no pattern waits.
type scanScratch struct {
	head, tail []int32  // per piece: its queue of waiting patterns, -1 when empty
	busy       []uint64 // per piece, a bit: its queue's head may take an occurrence that ends now
	// wheel lists, per slot, the pieces whose queue wakes at its byte.
	wheel []int32
	wakes []int32  // per piece: the next piece in its slot of the wheel
	wait  []waiter // per pattern
	began []int32  // the patterns that began waiting in this check
}

// waiter is the state of one pattern in a check; one struct, because a
// pattern that moves on touches all of it.
type waiter struct {
	at   int32 // the bytes read when it began waiting for steps[cur], less scanRun.base
	next int32 // the pattern after it in its queue or list
	cur  int32 // the index in steps of what it waits for, -1 when it does not wait
	// ahead is steps[cur+1], loaded when the pattern begins to wait rather
	// than when it moves on: the steps of many patterns do not stay in cache.
	ahead int32
}

func newScanner(ranked []Pattern) *scanner {
	sc := &scanner{
		patterns: ranked,
		none:     int32(len(ranked)),
		plen:     make([]int32, len(ranked)),
		first:    make([]int32, len(ranked)),
		byPrefix: make([]int32, len(ranked)),
	}
	globs := make([]Glob, len(ranked))
	distinct := map[string]int32{}
	total := 0
	for i, p := range ranked {
		g := ReadGlob(p.Expr)
		globs[i] = g
		sc.plen[i] = int32(g.Star)
		for piece := range g.Pieces() {
			distinct[piece] = 0
			total++
		}
	}
	sorted := make([]string, 0, len(distinct))
	for piece := range distinct {
		sorted = append(sorted, piece)
	}
	slices.Sort(sorted)
	trie, id := newACTrie(sorted)
	for i, piece := range sorted {
		distinct[piece] = id[i]
	}
	sc.trie = trie
	sc.wheel = 1
	for _, piece := range sorted {
		sc.wheel = max(sc.wheel, len(piece)+1)
	}
	sc.steps = make([]int32, 0, total+len(ranked)+1)
	for i, g := range globs {
		sc.first[i] = int32(len(sc.steps))
		for piece := range g.Pieces() {
			sc.steps = append(sc.steps, distinct[piece])
		}
		switch {
		case !pinned(g):
			sc.steps = append(sc.steps, stepMatch)
		case !g.Starred():
			sc.steps = append(sc.steps, stepEnd)
		default:
			sc.steps[len(sc.steps)-1] = -2 - sc.steps[len(sc.steps)-1]
		}
	}
	sc.steps = append(sc.steps, stepMatch) // what the last pattern's last step loads ahead
	for i := range sc.byPrefix {
		sc.byPrefix[i] = int32(i)
	}
	slices.SortStableFunc(sc.byPrefix, func(a, b int32) int {
		return strings.Compare(sc.prefix(a), sc.prefix(b))
	})
	sc.pool.New = func() any { return sc.newScratch() }
	sc.tableBytes = alloc.SizeOf[scanner]() + trie.bytes() +
		4*(cap(sc.plen)+cap(sc.first)+cap(sc.steps)+cap(sc.byPrefix))
	x := sc.newScratch()
	sc.scratchBytes = x.bytes()
	sc.pool.Put(x)
	return sc
}

func (sc *scanner) prefix(i int32) string { return sc.patterns[i].Expr[:sc.plen[i]] }

// pinned reports whether the scanner must find g's last piece, or its key
// when it has no star, at the end of the path: a star that ends the body,
// or stars with no piece between them, match up to any end.
func pinned(g Glob) bool {
	return g.Anchored && (!g.Starred() || g.Body[len(g.Body)-1] != '*')
}

func (sc *scanner) newScratch() *scanScratch {
	npiece, npat := len(sc.trie.plen), len(sc.patterns)
	x := &scanScratch{
		head:  make([]int32, npiece),
		tail:  make([]int32, npiece),
		busy:  make([]uint64, (npiece+63)/64),
		wheel: make([]int32, sc.wheel),
		wakes: make([]int32, npiece),
		wait:  make([]waiter, npat),
		began: make([]int32, 0, npat),
	}
	for i := range x.head {
		x.head[i], x.tail[i] = -1, -1
	}
	for i := range x.wheel {
		x.wheel[i] = -1
	}
	for i := range x.wait {
		x.wait[i].cur = -1
	}
	return x
}

func (x *scanScratch) bytes() int {
	return alloc.SizeOf[scanScratch]() + 4*(cap(x.head)+cap(x.tail)+cap(x.began)+cap(x.wheel)+cap(x.wakes)) + 8*cap(x.busy) +
		cap(x.wait)*alloc.SizeOf[waiter]()
}

func (sc *scanner) bytes() int { return sc.tableBytes + sc.scratchBytes }

// scanRun is one check in progress on the scanner.
type scanRun struct {
	sc    *scanner
	x     *scanScratch
	n     int   // bytes read
	base  int   // what waiter.at counts from (see rebase)
	s     int32 // the trie node after them, kept while some pattern waits
	best  int32 // the best pattern matched so far, sc.none for none
	live  int   // waiting patterns that rank above best
	final int32 // head of the list of patterns waiting for their anchored last piece
	// lo and hi delimit the byPrefix entries whose prefix is longer than
	// the bytes read and starts with them.
	lo, hi int32
	// endBest is the best anchored pattern without pieces whose prefix is
	// the first endAt bytes: it matches if the path ends there.
	endBest  int32
	endAt    int
	slot     int // the wheel's slot of byte n
	sleeping int // queues on the wheel
}

func (r *scanRun) start(sc *scanner) {
	*r = scanRun{sc: sc, x: sc.pool.Get().(*scanScratch), best: sc.none, final: -1,
		hi: int32(len(sc.byPrefix)), endBest: sc.none, endAt: -1}
	r.beginPrefixes()
}

// feed reads in; it reports false once nothing more can change the
// verdict.
func (r *scanRun) feed(in string) bool {
	t := r.sc.trie
	for i := 0; i < len(in); i++ {
		c := in[i]
		if r.lo < r.hi {
			r.narrow(c)
		}
		r.n++
		if r.n-r.base > scanWindow {
			r.rebase(scanWindow/2, scanWindow)
		}
		if r.slot++; r.slot == len(r.x.wheel) {
			r.slot = 0
		}
		if r.x.wheel[r.slot] >= 0 {
			r.wake()
		}
		if r.live > 0 {
			r.s = t.next(r.s, c)
			if v := t.out[r.s]; v >= 0 {
				r.found(v)
			}
		} else {
			r.s = 0 // nothing waits: a pattern that begins later needs no earlier byte
		}
		if r.lo < r.hi {
			r.beginPrefixes()
		}
		if r.live == 0 && (r.lo >= r.hi || r.best == 0) && (r.endAt != r.n || r.endBest >= r.best) {
			return false
		}
	}
	return true
}

// scanWindow bounds the bytes read that a waiter counts in its int32:
// past it, the check rebases, which keeps the scanner exact on any path.
const scanWindow = 1 << 30

// rebase moves the waiters' base forward by shift bytes; a waiter older
// than window keeps -window, the same for every piece shorter than window.
func (r *scanRun) rebase(shift, window int) {
	r.base += shift
	for _, i := range r.x.began {
		if w := &r.x.wait[i]; w.cur >= 0 {
			w.at = int32(max(int(w.at)-shift, -window))
		}
	}
}

// wake sets busy the queues whose head may take an occurrence from now on.
func (r *scanRun) wake() {
	x := r.x
	for p := x.wheel[r.slot]; p >= 0; p = x.wakes[p] {
		x.busy[p>>6] |= 1 << (p & 63)
		r.sleeping--
	}
	x.wheel[r.slot] = -1
}

// sleep puts piece p's queue to sleep until its head, which began waiting
// at byte at, may take an occurrence: len(p) bytes after.
func (r *scanRun) sleep(p, at int32) {
	x := r.x
	x.busy[p>>6] &^= 1 << (p & 63)
	s := r.slot + int(at) + int(r.sc.trie.plen[p]) - (r.n - r.base) // at most len(p) slots ahead
	if s >= len(x.wheel) {
		s -= len(x.wheel)
	}
	x.wakes[p], x.wheel[s] = x.wheel[s], p
	r.sleeping++
}

// narrow keeps the prefixes whose next byte, at r.n, is c.
func (r *scanRun) narrow(c byte) {
	sc, d := r.sc, r.n
	at := func(k int32) byte { return sc.patterns[sc.byPrefix[k]].Expr[d] }
	lo, hi := r.lo, r.hi
	for lo < hi { // the first entry whose byte is c or more
		mid := int32(uint32(lo+hi) >> 1)
		if at(mid) < c {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	end := lo
	for hi = r.hi; end < hi; { // the first entry whose byte is more than c
		mid := int32(uint32(end+hi) >> 1)
		if at(mid) <= c {
			end = mid + 1
		} else {
			hi = mid
		}
	}
	r.lo, r.hi = lo, end
}

// beginPrefixes begins the patterns whose prefix is what was read.
func (r *scanRun) beginPrefixes() {
	sc := r.sc
	for ; r.lo < r.hi; r.lo++ {
		i := sc.byPrefix[r.lo]
		if int(sc.plen[i]) != r.n {
			return
		}
		r.begin(i)
	}
}

func (r *scanRun) begin(i int32) {
	if i >= r.best {
		return
	}
	k := r.sc.first[i]
	switch step := r.sc.steps[k]; step {
	case stepMatch:
		r.improve(i)
	case stepEnd:
		if r.endAt != r.n || i < r.endBest {
			r.endBest, r.endAt = i, r.n
		}
	default:
		r.x.began = append(r.x.began, i)
		r.live++
		r.wait(i, &r.x.wait[i], k, step)
	}
}

// wait makes pattern i wait from here for step k, which is step.
func (r *scanRun) wait(i int32, w *waiter, k, step int32) {
	x := r.x
	w.cur, w.at, w.ahead = k, int32(r.n-r.base), r.sc.steps[k+1]
	if step < 0 {
		w.next, r.final = r.final, i
		return
	}
	w.next = -1
	if t := x.tail[step]; t >= 0 {
		x.wait[t].next = i
	} else {
		x.head[step] = i
		r.sleep(step, w.at)
	}
	x.tail[step] = i
}

// found pops the queues of every piece that ends here: piece v and its
// ancestors in the suffix tree, a run of numbers at a time.
func (r *scanRun) found(v int32) {
	t, busy := r.sc.trie, r.x.busy
	for ; v >= 0; v = t.jump[v] {
		lo, hi := t.head[v], v
		for w := lo >> 6; w <= hi>>6; w++ {
			m := busy[w]
			if w == lo>>6 {
				m &= ^uint64(0) << (lo & 63)
			}
			if w == hi>>6 {
				m &= ^uint64(0) >> (63 - hi&63)
			}
			for ; m != 0; m &= m - 1 {
				r.pop(w<<6 | int32(bits.TrailingZeros64(m)))
			}
		}
	}
}

// pop moves on the patterns at the head of piece p's queue that may take
// the occurrence of p that ends here, and drops the dropped ones it meets.
func (r *scanRun) pop(p int32) {
	x := r.x
	need := r.n - r.base - int(r.sc.trie.plen[p]) // a pattern may take it if it began waiting by then
	for {
		i := x.head[p]
		if i < 0 {
			return
		}
		w := &x.wait[i]
		if w.cur >= 0 && int(w.at) > need {
			if x.busy[p>>6]&(1<<(p&63)) != 0 { // not when it emptied and sleeps already
				r.sleep(p, w.at)
			}
			return
		}
		x.head[p] = w.next
		if w.next < 0 {
			x.tail[p] = -1
			x.busy[p>>6] &^= 1 << (p & 63)
		}
		if w.cur >= 0 {
			r.advance(i, w)
		}
	}
}

func (r *scanRun) advance(i int32, w *waiter) {
	if w.ahead != stepMatch {
		r.wait(i, w, w.cur+1, w.ahead)
		return
	}
	w.cur = -1
	r.live--
	r.improve(i)
}

// improve records a match of i, better than r.best, and drops those between.
func (r *scanRun) improve(i int32) {
	x := r.x
	old := r.best
	r.best = i
	drop := func(j int32) {
		if x.wait[j].cur >= 0 {
			x.wait[j].cur = -1
			r.live--
		}
	}
	if int(old-i) <= len(x.began) {
		for j := i + 1; j < old; j++ {
			drop(j)
		}
		return
	}
	for _, j := range x.began {
		if i < j && j < old {
			drop(j)
		}
	}
}

// end returns the verdict if the path ends here, and releases the run.
func (r *scanRun) end() int32 {
	sc, x, t := r.sc, r.x, r.sc.trie
	best := r.best
	if r.endAt == r.n {
		best = min(best, r.endBest)
	}
	if r.live > 0 {
		v := t.out[r.s]
		for i := r.final; i >= 0; i = x.wait[i].next {
			w := &x.wait[i]
			if w.cur < 0 || i >= best {
				continue
			}
			p := -2 - sc.steps[w.cur]
			if r.n-r.base-int(t.plen[p]) >= int(w.at) && t.endsWith(v, p) {
				best = i
			}
		}
	}
	r.release()
	return best
}

func (r *scanRun) release() {
	x := r.x
	for _, i := range x.began {
		x.wait[i].cur = -1
	}
	x.began = x.began[:0]
	for w, m := range x.busy {
		for ; m != 0; m &= m - 1 {
			p := w<<6 | bits.TrailingZeros64(m)
			x.head[p], x.tail[p] = -1, -1
		}
		x.busy[w] = 0
	}
	for s := r.slot; r.sleeping > 0; {
		for p := x.wheel[s]; p >= 0; p = x.wakes[p] {
			x.head[p], x.tail[p] = -1, -1
			r.sleeping--
		}
		x.wheel[s] = -1
		if s++; s == len(x.wheel) {
			s = 0
		}
	}
	r.sc.pool.Put(x)
	r.x = nil
}

func (sc *scanner) decide(a, b, c string) int32 {
	var r scanRun
	r.start(sc)
	_ = r.feed(a) && r.feed(b) && r.feed(c)
	return r.end()
}
