package lint

import (
	"strings"

	"github.com/fastrobots/robots/compile"
)

// checkPattern reports an allow or disallow value that never matches, has
// no effect, or holds a '$' or '*' that does less than it seems.
func (l *linter) checkPattern(num int, tok compile.Token, f fields) {
	v := tok.Value
	switch {
	case v == "" && tok.Kind == compile.Allow:
		l.report(num, f.key+1, CodeEmptyAllow, "an empty Allow has no effect: it allows nothing the absence of a rule would not")
		return
	case v == "":
		return // "Disallow:" is the usual way to say "allow everything"
	case v[0] != '/' && v[0] != '*':
		l.report(num, f.value+1, CodePatternNoSlash,
			"%q starts with neither '/' nor '*' and never matches: paths start with '/'", v)
		return
	}
	if i := strings.IndexByte(v[:len(v)-1], '$'); i >= 0 {
		l.report(num, f.value+i+1, CodeDollarInside,
			"'$' anchors the end only as the pattern's last byte; here it matches a literal '$'")
	}
	if strings.HasSuffix(v, "*") && strings.Trim(v, "*") != "" {
		l.report(num, f.value+len(v), CodeTrailingStar,
			"a '*' at the end matches nothing more (a pattern matches any path that starts like it), but counts in the pattern's length when rules conflict")
	}
}
