package compile

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// keyEntry returns an entry whose key is key, held alone in its slab.
func keyEntry(key string) (coldEntry, string) {
	e := coldEntry{key: uint16(len(key)), n: uint16(len(key))}
	e.setHead(key)
	return e, key
}

// checkHead holds the tests an entry answers from its head to the
// string functions they stand for: keyStarts on any path, compareKey and
// commonKeyPrefix on a path of the entry's group, which it gets by taking
// the key's second byte when both have one (a path of another group is
// never compared with the key).
func checkHead(t *testing.T, key, path string) {
	t.Helper()
	e, slab := keyEntry(key)
	assert.Equal(t, strings.HasPrefix(path, key), e.keyStarts(slab, path), "keyStarts(%q, %q)", key, path)
	if len(key) < 2 || len(path) < 2 {
		return
	}
	path = path[:1] + key[1:2] + path[2:]
	ph := headOf(path)
	assert.Equal(t, strings.Compare(key, path), e.compareKey(slab, path, ph), "compareKey(%q, %q)", key, path)
	assert.Equal(t, commonPrefix(key, path), e.commonKeyPrefix(slab, path, ph), "commonKeyPrefix(%q, %q)", key, path)
}

// TestHeadDecidesAsStrings checks the comparisons an entry makes from
// its head against strings.Compare, commonPrefix and strings.HasPrefix,
// about the head's length, where padding meets NUL bytes, and past it,
// where the slab decides.
func TestHeadDecidesAsStrings(t *testing.T) {
	for _, tt := range []struct{ key, path string }{
		{"", ""},
		{"", "/a"},
		{"/", "/"},
		{"/", ""},
		{"/a", "/b"},
		{"/b", "/a"},
		{"/a", "/a\x00"}, // padding against a NUL byte: the shorter is less
		{"/a\x00", "/a"}, // and the other way round
		{"/a\x00\x00", "/a\x00"},
		{"/abcdef", "/abcdefg"},        // seven and eight bytes
		{"/abcdefg", "/abcdef"},        //
		{"/abcdefg", "/abcdefg"},       // eight, equal
		{"/abcdefg", "/abcdefgh"},      // eight and nine: the key is a prefix
		{"/abcdefgh", "/abcdefg"},      // nine and eight
		{"/abcdefgh", "/abcdefgi"},     // equal heads, the slab decides
		{"/abcdefgi", "/abcdefgh"},     //
		{"/abcdefgh", "/abcdefgh"},     // nine, equal
		{"/abcdefg\x00", "/abcdefg"},   // a NUL byte past the head
		{"/abcdefg", "/abcdefg\x00"},   //
		{"/abcdefgh/x", "/abcdefgh/y"}, // long, differing late
		{"/abcdefgh/x", "/abcdefgh/x/y"},
		{"/abcXefgh/x", "/abcdefgh/x"}, // long, differing in the head
		{"/wp-admin/", "/wp-content/uploads/a.jpg"},
		{"/catalog/product_compare/", "/catalog/category/view/s/a"},
		{"\xff\xff", "\xff\xfe"},
		{"a", "/a"}, // a key that is not a path's
		{"/", "x"},  // keys of one byte
		{"x", "x/a"},
		{"/a\x00\x00\x00\x00\x00\x00", "/a"}, // NUL bytes to the head's end
		{"\x00\x00", "\x00\x00\x00"},
	} {
		checkHead(t, tt.key, tt.path)
		checkHead(t, tt.path, tt.key)
	}
}

// FuzzHead holds the comparisons an entry makes from its head to the
// string functions they stand for, on any two strings.
func FuzzHead(f *testing.F) {
	for _, s := range [][2]string{{"/a", "/a\x00"}, {"/abcdefgh", "/abcdefgi"}, {"/abcdefg", "/abcdefg\x00x"}, {"", "/"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, key, path string) {
		if len(key) > 3*MaxLineBytes {
			key = key[:3*MaxLineBytes]
		}
		checkHead(t, key, path)
	})
}
