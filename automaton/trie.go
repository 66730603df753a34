package automaton

import (
	"slices"

	"github.com/fastrobots/robots/internal/alloc"
)

// acTrie is the Aho–Corasick automaton of a set of distinct, non-empty
// strings, the pieces: reading a text byte by byte, it tells after each
// byte every piece that ends there. Its nodes are numbered breadth first,
// siblings in label order, so a node's children are a range (first); the
// root, where the text returns most often, has a dense table besides.
//
// The pieces that end at a node are out[n] and its ancestors in the suffix
// tree of the pieces (a piece's parent is its longest proper suffix that
// is a piece). Pieces are numbered in heavy-path order of that tree, so
// the path from any piece v to the top is at most log2(pieces)+1 runs of
// consecutive numbers, [head[v], v] then the run of jump[v] and so on, and
// a caller can test them a bitmap word at a time.
type acTrie struct {
	label []byte     // per node: the byte on the edge from its parent
	first []int32    // per node, and one more: node n's children are first[n] to first[n+1]-1
	fail  []int32    // per node: the node of its longest proper suffix that is a node
	out   []int32    // per node: the longest piece that is a suffix of it, or -1
	root  [256]int32 // the root's child on each byte, 0 (the root) for none

	plen []int32 // per piece: its length
	head []int32 // per piece: the first piece of its run (its heavy path's top)
	jump []int32 // per piece: the parent of head, where the next run ends; -1 at the top
}

// newACTrie builds the automaton of pieces, which must be sorted, distinct
// and non-empty, and returns the number it gives pieces[i], id[i].
func newACTrie(pieces []string) (t *acTrie, id []int32) {
	t = &acTrie{}
	pieceAt := t.grow(pieces)
	t.link()
	outAt := make([]int32, len(t.label))
	for n := range outAt {
		outAt[n] = -1
	}
	for i, n := range pieceAt {
		outAt[n] = int32(i)
	}
	for n := 1; n < len(outAt); n++ {
		if outAt[n] < 0 {
			outAt[n] = outAt[t.fail[n]] // fail[n] < n: it is shallower
		}
	}
	parent := make([]int32, len(pieces)) // in the suffix tree of the pieces
	for i, n := range pieceAt {
		parent[i] = outAt[t.fail[n]]
	}
	id = heavyPathOrder(parent)
	t.plen = make([]int32, len(pieces))
	for i, p := range pieces {
		t.plen[id[i]] = int32(len(p))
	}
	t.numberRuns(parent, id)
	t.out = outAt
	for n, i := range t.out {
		if i >= 0 {
			t.out[n] = id[i]
		}
	}
	return t, id
}

// grow builds the nodes breadth first, each a range of the sorted pieces
// with the piece equal to its string first, and returns each piece's node.
func (t *acTrie) grow(pieces []string) []int32 {
	type span struct{ lo, hi, depth int32 }
	spans := []span{{0, int32(len(pieces)), 0}}
	t.label = []byte{0}
	pieceAt := make([]int32, len(pieces))
	for n := 0; n < len(spans); n++ {
		sp := spans[n]
		t.first = append(t.first, int32(len(spans)))
		lo := sp.lo
		if lo < sp.hi && int32(len(pieces[lo])) == sp.depth {
			pieceAt[lo] = int32(n)
			lo++
		}
		for lo < sp.hi {
			c := pieces[lo][sp.depth]
			hi := lo + 1
			for hi < sp.hi && pieces[hi][sp.depth] == c {
				hi++
			}
			spans = append(spans, span{lo, hi, sp.depth + 1})
			t.label = append(t.label, c)
			lo = hi
		}
	}
	t.first = slices.Clip(append(t.first, int32(len(spans))))
	t.label = slices.Clip(t.label)
	return pieceAt
}

// link sets the failure links and the root's table.
func (t *acTrie) link() {
	t.fail = make([]int32, len(t.label))
	for n := t.first[0]; n < t.first[1]; n++ {
		t.root[t.label[n]] = n
	}
	for u := int32(1); u < int32(len(t.label)); u++ {
		for v := t.first[u]; v < t.first[u+1]; v++ {
			t.fail[v] = t.next(t.fail[u], t.label[v])
		}
	}
}

// heavyPathOrder numbers the nodes of a forest of parent links (< 0 at a
// top) in preorder, the child with the largest subtree first.
func heavyPathOrder(parent []int32) []int32 {
	n := len(parent)
	// The tops are the children of -1.
	start := make([]int32, n+2)
	for _, p := range parent {
		start[p+2]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	kids := make([]int32, n)
	fill := slices.Clone(start)
	for i, p := range parent {
		kids[fill[p+1]] = int32(i)
		fill[p+1]++
	}
	children := func(p int32) []int32 { return kids[start[p+1]:start[p+2]] }

	order := make([]int32, 0, n)
	stack := slices.Clone(children(-1))
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], children(v)...)
		order = append(order, v)
	}
	size := make([]int32, n)
	for i := len(order) - 1; i >= 0; i-- {
		v := order[i]
		size[v]++
		if p := parent[v]; p >= 0 {
			size[p] += size[v]
		}
	}
	for p := int32(-1); p < int32(n); p++ {
		slices.SortStableFunc(children(p), func(a, b int32) int { return int(size[b] - size[a]) })
	}

	id := make([]int32, n)
	next := int32(0)
	stack = appendReversed(stack[:0], children(-1))
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = appendReversed(stack[:len(stack)-1], children(v))
		id[v] = next
		next++
	}
	return id
}

func appendReversed(dst, s []int32) []int32 {
	for i := len(s) - 1; i >= 0; i-- {
		dst = append(dst, s[i])
	}
	return dst
}

func (t *acTrie) numberRuns(parent, id []int32) {
	n := len(parent)
	up := make([]int32, n) // by number: the parent's number, or -1
	for i, p := range parent {
		up[id[i]] = -1
		if p >= 0 {
			up[id[i]] = id[p]
		}
	}
	t.head = make([]int32, n)
	t.jump = make([]int32, n)
	// In heavy-first preorder a node continues its parent's run exactly
	// when it is numbered right after it.
	for v := range int32(n) {
		t.head[v] = v
		if p := up[v]; p >= 0 && p == v-1 {
			t.head[v] = t.head[p]
		}
		t.jump[v] = up[t.head[v]]
	}
}

func (t *acTrie) next(s int32, c byte) int32 {
	for s != 0 {
		if x := t.child(s, c); x > 0 {
			return x
		}
		s = t.fail[s]
	}
	return t.root[c]
}

func (t *acTrie) child(s int32, c byte) int32 {
	lo, end := t.first[s], t.first[s+1]
	for hi := end; hi-lo > 8; {
		mid := int32(uint32(lo+hi) >> 1)
		if t.label[mid] < c {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	for ; lo < end && t.label[lo] <= c; lo++ {
		if t.label[lo] == c {
			return lo
		}
	}
	return 0
}

// endsWith reports whether piece p ends where piece v does: whether p is
// v or one of its ancestors in the suffix tree.
func (t *acTrie) endsWith(v, p int32) bool {
	for ; v >= 0; v = t.jump[v] {
		if t.head[v] <= p && p <= v {
			return true
		}
	}
	return false
}

func (t *acTrie) bytes() int {
	return alloc.SizeOf[acTrie]() + cap(t.label) +
		4*(cap(t.first)+cap(t.fail)+cap(t.out)+cap(t.plen)+cap(t.head)+cap(t.jump))
}
