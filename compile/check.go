package compile

import (
	"strings"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/bytestr"
)

// Every check of a rule set enters through the methods of this file, and
// this file alone chooses the tier that answers it. A path arrives in
// pieces (a+b+c), so that a caller holding a URL in parts never joins them:
//
//   - Once built, the automaton answers (hot), walking the pieces, or the
//     URL's bytes up to its '#', in place; in a dialect that matches paths
//     as written (Verbatim) nothing is done to a path first.
//   - Before that, the cold tier tests the rules whose keys the path starts
//     with (coldPath), while its work stays within coldWorkMax. After HotAfter
//     cold checks, or for one past that bound, the automaton is built.
//   - A dialect that rewrites paths (RFC mode) makes the check's subject
//     first (Dialect.Subject), then asks the same tiers.

// Verdict is what a rule set decides for a path: the ID of the winning
// pattern (an index into the selection's rules, in group and file order)
// and its kind, or Matched false when no pattern matches.
type Verdict struct {
	ID      int32
	Allow   bool
	Matched bool
	// Implicit is set when the path was allowed without consulting the
	// rules: in RFC mode, /robots.txt itself (RFC 9309 section 2.2.2).
	Implicit bool
}

// Allowed reports the verdict: false when the winner is a disallow.
func (v Verdict) Allowed() bool { return !v.Matched || v.Allow }

// robotsTxtPath is the path RFC 9309 section 2.2.2 always allows.
const robotsTxtPath = "/robots.txt"

// hot returns the automaton once built, in a dialect that rewrites no path.
func (rs *RuleSet) hot() *automaton.Set {
	if !rs.verbatim {
		return nil
	}
	return rs.set.Load()
}

// Allowed reports whether the path a+b+c is allowed: Decide(a, b,
// c).Allowed(), without naming the rule once the automaton is built.
func (rs *RuleSet) Allowed(a, b, c string) bool {
	if s := rs.hot(); s != nil {
		if c == "" {
			return s.Allowed(a, b)
		}
		p, ok := s.DecideParts(a, b, c)
		return !ok || p.Allow
	}
	return rs.decide(a, b, c).Allowed()
}

// AllowedBeforeFragment reports whether p, up to its first '#', is
// allowed: p may be a URL from its path on, fragment included.
func (rs *RuleSet) AllowedBeforeFragment(p string) bool {
	if s := rs.hot(); s != nil {
		return s.AllowedBeforeFragment(p)
	}
	return rs.decide(cutFragment(p), "", "").Allowed()
}

// AllowedLanes is AllowedBeforeFragment of each of the paths p, which the
// automaton walks at once (automaton.Set.AllowedLanes).
func (rs *RuleSet) AllowedLanes(p *[automaton.Lanes]string) (v [automaton.Lanes]bool) {
	if s := rs.hot(); s != nil {
		return s.AllowedLanes(p)
	}
	for k := range p {
		v[k] = rs.AllowedBeforeFragment(p[k])
	}
	return v
}

// Decide returns the verdict for the path a+b+c.
func (rs *RuleSet) Decide(a, b, c string) Verdict {
	if s := rs.hot(); s != nil {
		return verdictOf(s.DecideParts(a, b, c))
	}
	return rs.decide(a, b, c)
}

// decide answers a check hot does not: it makes the dialect's subject,
// then asks the cold tier, and builds the automaton when cold declines.
func (rs *RuleSet) decide(a, b, c string) Verdict {
	if !rs.verbatim {
		s := rs.file.dialect.Subject(a + b + c)
		if rs.file.dialect.ImplicitRobotsTxt && s == robotsTxtPath {
			return Verdict{Allow: true, Implicit: true}
		}
		a, b, c = s, "", ""
	}
	if rs.set.Load() == nil && !rs.normalize {
		// The cold tier; a path in one piece, as every AllowedPath gives,
		// goes to it without a buffer to join pieces in, nor a call that
		// only chooses (coldJoined).
		var v Verdict
		var ok bool
		if b == "" && c == "" {
			v, ok = rs.coldPath(a)
		} else {
			v, ok = rs.coldJoined(a, b, c)
		}
		if ok {
			return v
		}
	}
	return verdictOf(rs.compile().DecideParts(a, b, c))
}

func verdictOf(p automaton.Pattern, ok bool) Verdict {
	return Verdict{ID: p.ID, Allow: p.Allow, Matched: ok}
}

func cutFragment(p string) string {
	if i := strings.IndexByte(p, '#'); i >= 0 {
		return p[:i]
	}
	return p
}

// coldJoined is coldPath of the path a+b+c, joined in a buffer of its own
// when it fits: its 256 bytes are zeroed at each call, which a path in one
// piece need not pay.
func (rs *RuleSet) coldJoined(a, b, c string) (Verdict, bool) {
	var buf [coldJoinBytes]byte
	return rs.coldPath(joinPath(buf[:0], a, b, c))
}

// coldPath answers a check by testing the rules, while the rule set is
// cold and the work within coldWorkMax; ok is false otherwise. Patterns
// that are normalised are never tested cold (decide).
func (rs *RuleSet) coldPath(path string) (v Verdict, ok bool) {
	if rs.endAtNUL {
		path, _ = automaton.CutAtNUL(path)
	}
	n := rs.checks.Add(1)
	if n > HotAfter {
		return v, false
	}
	var m coldMatch
	ix := rs.index.Load()
	if ix == nil && n == 1 && coldWork(len(path), int(rs.rules), int(rs.bytes)) <= coldWorkMax {
		rs.matchAll(&m, path) // one check may be all there is
		return m.verdict(), true
	}
	if ix == nil {
		ix = rs.buildIndex()
	}
	if len(path) > int(ix.coldPathMax) { // past coldWorkMax
		return v, false
	}
	ix.match(&m, rs, path)
	return m.verdict(), true
}

const coldJoinBytes = 256

// joinPath returns a+b+c, copied into buf when several pieces fit it. The
// result may alias buf, which the caller must not write again.
func joinPath(buf []byte, a, b, c string) string {
	switch {
	case b == "" && c == "":
		return a
	case a == "" && c == "":
		return b
	case a == "" && b == "":
		return c
	case len(a)+len(b)+len(c) > cap(buf):
		return a + b + c
	}
	return bytestr.String(append(append(append(buf, a...), b...), c...))
}

// coldWork bounds the bytes a cold check compares: each try reads the path
// at most once per pattern segment, many bytes at a time. It counts in
// int64, which no path and file can overflow; an int of 32 bits can.
func coldWork(pathLen, rules, bytes int) int64 {
	return (int64(pathLen) + 1) * (int64(rules) + int64(bytes)/16)
}
