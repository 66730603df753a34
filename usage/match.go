package usage

import (
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
)

// EscapePath returns a Content-Usage path in the form Allow and Disallow
// patterns are matched in: bytes outside ASCII percent-encoded, the hex
// digits of "%xx" escapes in upper case (compile.EscapePattern, the
// engine's own). Lengths are counted in this form
// (draft-ietf-aipref-attach-05 section 3.1: the bytes of the encoded path).
// It returns p itself when nothing changes.
func EscapePath(p string) string { return compile.EscapePattern(p) }

// Match reports whether pattern matches path, both escaped alike, with the
// meaning Allow and Disallow patterns have in the engine
// (automaton.Match): the pattern matches a prefix of the path, '*'
// matches any run of bytes and a final '$' requires the match to end with
// the path.
func Match(pattern, path string) bool { return automaton.Match(pattern, path) }
