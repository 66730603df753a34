package lint

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrefixTreeChains(t *testing.T) {
	var tree prefixTree
	prefixes := []string{"/a/b", "", "/a", "/b", "/a/bc", "/a/b", "/", "/ab"}
	ids := make([]int32, len(prefixes))
	for i, p := range prefixes {
		ids[i] = tree.id(p)
	}
	assert.Equal(t, ids[0], ids[5], "a prefix has one number")
	tree.link()
	chain := func(p string) []string {
		var out []string
		for _, id := range tree.chain(tree.ids[p], nil) {
			out = append(out, tree.prefix[id])
		}
		return out
	}
	tests := []struct {
		prefix string
		want   []string
	}{
		{"", []string{""}},
		{"/", []string{"/", ""}},
		{"/a", []string{"/a", "/", ""}},
		{"/ab", []string{"/ab", "/a", "/", ""}},
		{"/a/b", []string{"/a/b", "/a", "/", ""}},
		{"/a/bc", []string{"/a/bc", "/a/b", "/a", "/", ""}},
		{"/b", []string{"/b", "/", ""}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, chain(tt.prefix), "%q", tt.prefix)
	}
}

func TestPrefixTreeWithoutRoot(t *testing.T) {
	var tree prefixTree
	for _, p := range []string{"/x", "/a", "/ab"} {
		tree.id(p)
	}
	tree.link()
	assert.Equal(t, []int32{0}, tree.chain(0, nil))
	assert.Equal(t, []int32{2, 1}, tree.chain(2, nil))
}

// TestPrefixTreeLongest: longest gives the longest prefix in the tree
// that starts a string, as a look at every prefix in the tree gives it,
// for random trees and strings over a small alphabet.
func TestPrefixTreeLongest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	word := func(n int) string {
		b := make([]byte, rng.IntN(n))
		for i := range b {
			b[i] = "/ab"[rng.IntN(3)]
		}
		return string(b)
	}
	found := 0
	for range 300 {
		var tree prefixTree
		for range 1 + rng.IntN(12) {
			tree.id(word(5))
		}
		tree.link()
		for range 20 {
			s := word(7)
			want := int32(-1)
			for id, p := range tree.prefix {
				if strings.HasPrefix(s, p) && (want < 0 || len(p) > len(tree.prefix[want])) {
					want = int32(id)
				}
			}
			assert.Equal(t, want, tree.longest(s), "%q in %q", s, tree.prefix)
			found += min(1, int(want+1))
		}
	}
	assert.Positive(t, found, "prefixes found")
}

func TestCandidateListsKeepOrderAndReset(t *testing.T) {
	var c candidateLists
	c.init(2, 5)
	c.reset()
	c.add(0, 1, 0)
	c.add(1, 0, 0)
	c.add(3, 1, 0)
	c.add(4, 1, 1)
	list := func(prefix int32, k int) []int32 {
		var out []int32
		for j := c.head(prefix, k); j >= 0; j = c.next[j] {
			out = append(out, j)
		}
		return out
	}
	assert.Equal(t, []int32{0, 3}, list(0, 1))
	assert.Equal(t, []int32{1}, list(0, 0))
	assert.Equal(t, []int32{4}, list(1, 1))
	assert.Empty(t, list(1, 0))
	c.reset()
	assert.Empty(t, list(0, 1), "a new selection starts empty")
	c.add(3, 1, 1)
	assert.Equal(t, []int32{3}, list(1, 1))
	assert.Empty(t, list(0, 1))
}
