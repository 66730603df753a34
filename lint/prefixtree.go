package lint

import (
	"slices"
	"strings"
)

// prefixTree links the distinct literal prefixes of a file's candidates
// (see entry), each to the longest other one that is a prefix of it. A
// pattern can only cover a glob whose literal prefix starts with its own,
// so the candidates to cover a glob are those filed under the prefixes of
// its chain: the longest prefix in the tree that starts its own literal
// prefix (longest) and that one's ancestors, at most one per byte of it.
type prefixTree struct {
	ids    map[string]int32
	prefix []string
	parent []int32 // the longest proper prefix in the tree, or -1
	sorted []int32 // the prefixes in sorted order
}

// id returns the number of a literal prefix, adding it to the tree; link
// must be called once every prefix is in.
func (t *prefixTree) id(prefix string) int32 {
	if t.ids == nil {
		t.ids = map[string]int32{}
	}
	id, ok := t.ids[prefix]
	if !ok {
		id = int32(len(t.prefix))
		t.ids[prefix] = id
		t.prefix = append(t.prefix, prefix)
	}
	return id
}

// link finds every prefix's parent. In sorted order, the prefixes of a
// string come before it, and every string between one of its prefixes and
// itself starts with that prefix: so a stack of the prefixes of the
// current string, popped as sorted strings stop starting with its top,
// holds at its top the parent of the next one. Time is O(n log n)
// comparisons, and linear in the bytes for the stack.
func (t *prefixTree) link() {
	order := make([]int32, len(t.prefix))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(t.prefix[a], t.prefix[b]) })
	t.parent = make([]int32, len(t.prefix))
	t.sorted = order
	var stack []int32
	for _, id := range order {
		for len(stack) > 0 && !strings.HasPrefix(t.prefix[id], t.prefix[stack[len(stack)-1]]) {
			stack = stack[:len(stack)-1]
		}
		t.parent[id] = -1
		if len(stack) > 0 {
			t.parent[id] = stack[len(stack)-1]
		}
		stack = append(stack, id)
	}
}

// longest returns the number of the longest prefix in the tree that
// starts s, or -1. Every prefix of s sorts before it, and so do the
// strings between the prefix and s, which all start with the prefix: so
// each prefix of s in the tree is the last string of the tree before s or
// an ancestor of it, and the deepest of them that starts s is the longest.
func (t *prefixTree) longest(s string) int32 {
	i, found := slices.BinarySearchFunc(t.sorted, s, func(id int32, s string) int { return strings.Compare(t.prefix[id], s) })
	if found {
		return t.sorted[i]
	}
	if i == 0 {
		return -1
	}
	for id := t.sorted[i-1]; id >= 0; id = t.parent[id] {
		if strings.HasPrefix(s, t.prefix[id]) {
			return id
		}
	}
	return -1
}

// chain appends to buf the prefix id and its ancestors, longest first.
func (t *prefixTree) chain(id int32, buf []int32) []int32 {
	for ; id >= 0; id = t.parent[id] {
		buf = append(buf, id)
	}
	return buf
}

// candidateLists files the candidates of one selection under their literal
// prefix, per kind (see kindIndex), in the order they are added. Starting
// a new selection costs nothing: lists of an older selection are stale by
// their stamp.
type candidateLists struct {
	stamp       int32
	stamps      []int32    // per prefix, the selection its lists belong to
	first, last [][2]int32 // per prefix and kind, -1 for none
	// next chains the candidates of a list: next[j] follows candidate j,
	// or is -1.
	next []int32
}

// init sizes the lists for prefixes prefixes and candidates numbered below
// n.
func (c *candidateLists) init(prefixes, n int) {
	c.stamps = make([]int32, prefixes)
	c.first = make([][2]int32, prefixes)
	c.last = make([][2]int32, prefixes)
	c.next = make([]int32, n)
}

// reset starts a new selection, with every list empty.
func (c *candidateLists) reset() { c.stamp++ }

// add appends candidate j, of kind k, to the list of its prefix.
func (c *candidateLists) add(j int32, k int, prefix int32) {
	if c.stamps[prefix] != c.stamp {
		c.stamps[prefix] = c.stamp
		c.first[prefix], c.last[prefix] = [2]int32{-1, -1}, [2]int32{-1, -1}
	}
	if l := c.last[prefix][k]; l < 0 {
		c.first[prefix][k] = j
	} else {
		c.next[l] = j
	}
	c.last[prefix][k] = j
	c.next[j] = -1
}

// head returns the first candidate of kind k filed under prefix, or -1.
func (c *candidateLists) head(prefix int32, k int) int32 {
	if c.stamps[prefix] != c.stamp {
		return -1
	}
	return c.first[prefix][k]
}
