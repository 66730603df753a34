package automaton

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endings returns, by piece number, the pieces that the trie says end
// after reading text, and the number of runs it walked.
func endings(t *acTrie, text string) (found []bool, runs int) {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = t.next(s, text[i])
	}
	found = make([]bool, len(t.plen))
	for v := t.out[s]; v >= 0; v = t.jump[v] {
		runs++
		for p := t.head[v]; p <= v; p++ {
			found[p] = true
		}
	}
	return found, runs
}

// TestACTrieFindsEveryEnding checks, after every prefix of random texts,
// that the pieces the trie reports ending there are exactly those the
// prefix ends with, that endsWith agrees, and that they take at most
// log2(pieces)+1 runs.
func TestACTrieFindsEveryEnding(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 300 {
		var pieces []string
		for range 1 + r.IntN(30) {
			if p := randomString(r, "abc", 1+r.IntN(6)); p != "" {
				pieces = append(pieces, p)
			}
		}
		slices.Sort(pieces)
		pieces = slices.Compact(pieces)
		trie, id := newACTrie(pieces)
		text := randomString(r, "abcd", 40)
		for n := 0; n <= len(text); n++ {
			found, runs := endings(trie, text[:n])
			s := int32(0)
			for i := 0; i < n; i++ {
				s = trie.next(s, text[i])
			}
			for i, p := range pieces {
				want := strings.HasSuffix(text[:n], p)
				require.Equal(t, want, found[id[i]], "pieces %q, text %q: piece %q", pieces, text[:n], p)
				assert.Equal(t, want, trie.endsWith(trie.out[s], id[i]))
				assert.Equal(t, int32(len(p)), trie.plen[id[i]])
			}
			assert.LessOrEqual(t, runs, bits.Len(uint(len(pieces))), "pieces %q", pieces)
		}
	}
}

// TestACTrieNestedPiecesAreOneRun checks the worst case of pieces ending at
// one byte, pieces nested as suffixes (a, aa, aaa, …): they are one run.
func TestACTrieNestedPiecesAreOneRun(t *testing.T) {
	var pieces []string
	for k := 1; k <= 1000; k++ {
		pieces = append(pieces, strings.Repeat("a", k))
	}
	trie, _ := newACTrie(pieces)
	found, runs := endings(trie, strings.Repeat("a", 2000))
	assert.Equal(t, 1, runs)
	assert.NotContains(t, found, false)
	assert.Equal(t, 1001, len(trie.label), "one node per length, and the root")
}

func TestACTrieEmpty(t *testing.T) {
	trie, id := newACTrie(nil)
	assert.Empty(t, id)
	assert.Equal(t, int32(0), trie.next(0, 'a'))
	assert.Equal(t, int32(-1), trie.out[0])
}
