package automaton

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestReadGlob(t *testing.T) {
	tests := []struct {
		expr     string
		key      string
		pieces   []string
		anchored bool
		pinned   bool // the scanner needs the last piece, or the key, at the path's end
	}{
		{"", "", nil, false, false},
		{"/a", "/a", nil, false, false},
		{"/a$", "/a", nil, true, true},
		{"/$", "/", nil, true, true},
		{"$", "", nil, true, true},
		{"*", "", nil, false, false},
		{"**", "", nil, false, false},
		{"*$", "", nil, true, false},
		{"/a*", "/a", nil, false, false},
		{"/a*$", "/a", nil, true, false},
		{"/a**$", "/a", nil, true, false},
		{"/*.php$", "/", []string{".php"}, true, true},
		{"/a**b", "/a", []string{"b"}, false, false},
		{"*a*$", "", []string{"a"}, true, false},
		{"/a*b*c$", "/a", []string{"b", "c"}, true, true},
		{"/a$b", "/a$b", nil, false, false},
		{"/a$$", "/a$", nil, true, true},
		{"/a*$b", "/a", []string{"$b"}, false, false},
		{"/a*$$", "/a", []string{"$"}, true, true},
		{"$*", "$", nil, false, false},
	}
	for _, tt := range tests {
		g := ReadGlob(tt.expr)
		assert.Equal(t, tt.key, g.Key(), tt.expr)
		assert.Equal(t, tt.pieces, slices.Collect(g.Pieces()), tt.expr)
		assert.Equal(t, tt.anchored, g.Anchored, tt.expr)
		assert.Equal(t, tt.pinned, pinned(g), tt.expr)
		assert.Equal(t, tt.expr, g.Body+map[bool]string{true: "$"}[g.Anchored], tt.expr)
		assert.Equal(t, g.Key()+g.Tail(), g.Body, tt.expr)
		assert.Equal(t, len(g.Key()) < len(g.Body), g.Starred(), tt.expr)
	}
}
