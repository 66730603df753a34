package usage

import "strings"

// UseKey is the Content-Signal key that states a Level: how AI systems
// may consume the content ("use=reference").
const UseKey = "use"

// Level is the most a site lets AI systems do with its content, stated by
// the use key of a Content-Signal line. The levels are ordered from least
// to most permissive, as Cloudflare's /crawl documentation orders them;
// the zero Level, LevelNone, is no statement.
type Level uint8

// The levels of Cloudflare's use key, least permissive first.
const (
	LevelNone Level = iota
	LevelImmediate
	LevelReference
	LevelFull
	numLevels
)

// LevelTerm describes one level.
type LevelTerm struct {
	// Name is the value as written in the line ("reference").
	Name string
	// Meaning is Cloudflare's definition of the level.
	Meaning string
}

// Levels are the levels, by Level. The definitions are those of the
// Content Signals section of Cloudflare's /crawl endpoint documentation
// (docs/usage.md gives the source).
var Levels = [numLevels]LevelTerm{
	LevelNone:      {"", "no statement: the site neither grants nor restricts a level"},
	LevelImmediate: {"immediate", "ephemeral, single-response use, where content is not retained"},
	LevelReference: {"reference", "content may be retained, indexed, or cited"},
	LevelFull:      {"full", "unrestricted use, including AI training"},
}

// ParseLevel returns the level named s, compared without ASCII case as
// the values yes and no are. ok is false for any other word, the empty
// one included; the Level is then LevelNone.
func ParseLevel(s string) (l Level, ok bool) {
	for i := LevelImmediate; i < numLevels; i++ {
		if strings.EqualFold(s, Levels[i].Name) {
			return i, true
		}
	}
	return LevelNone, false
}

// String returns the level's name, or "none" for LevelNone.
func (l Level) String() string {
	if l == LevelNone || l >= numLevels {
		return "none"
	}
	return Levels[l].Name
}

// CombineLevels returns two statements of a level taken together: the
// less permissive of the stated ones, so that, as for the yes/no keys,
// the most restrictive statement wins; LevelNone states nothing. It is
// commutative and associative.
func CombineLevels(a, b Level) Level {
	switch {
	case a == LevelNone || a >= numLevels:
		return b
	case b == LevelNone || b >= numLevels:
		return a
	}
	return min(a, b)
}

// Permits answers "may I use this content at level l?" for a site that
// states level site: Yes when l is site or less permissive, No when it is
// more permissive, Unknown when the site states no level or l is not one
// of the three levels.
func (site Level) Permits(l Level) Value {
	switch {
	case site == LevelNone || site >= numLevels || l == LevelNone || l >= numLevels:
		return Unknown
	case l <= site:
		return Yes
	}
	return No
}

// Refuses is the rule of Cloudflare's /crawl endpoint (changelog of
// 2026-08-31): a crawl that declares level declared is refused when the
// site states a level and declared is more permissive than it. A site
// that states no level refuses nothing. A crawler that declares nothing
// (LevelNone) is taken at LevelFull, the endpoint's default.
func (site Level) Refuses(declared Level) bool {
	if declared == LevelNone {
		declared = LevelFull
	}
	return site.Permits(declared) == No
}
