package lint

import (
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
