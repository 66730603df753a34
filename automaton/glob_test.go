package automaton

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSplitGlob(t *testing.T) {
	tests := []struct {
		expr string
		want glob
	}{
		{"/a", glob{prefix: "/a"}},
		{"/a$", glob{prefix: "/a", anchored: true}},
		{"/$", glob{prefix: "/", anchored: true}},
		{"$", glob{prefix: "", anchored: true}},
		{"*", glob{}},
		{"**", glob{}},
		{"*$", glob{}},
		{"/a*", glob{prefix: "/a"}},
		{"/a*$", glob{prefix: "/a"}},
		{"/a**$", glob{prefix: "/a"}},
		{"/*.php$", glob{prefix: "/", pieces: []string{".php"}, anchored: true}},
		{"/a**b", glob{prefix: "/a", pieces: []string{"b"}}},
		{"*a*$", glob{pieces: []string{"a"}}},
		{"/a*b*c$", glob{prefix: "/a", pieces: []string{"b", "c"}, anchored: true}},
		{"/a$b", glob{prefix: "/a$b"}},
		{"/a$$", glob{prefix: "/a$", anchored: true}},
		{"/a*$b", glob{prefix: "/a", pieces: []string{"$b"}}},
		{"/a*$$", glob{prefix: "/a", pieces: []string{"$"}, anchored: true}},
		{"$*", glob{prefix: "$"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, splitGlob(tt.expr), tt.expr)
	}
}
