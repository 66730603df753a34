package robots

import (
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/rawurl"
	"github.com/fastrobots/robots/runtime"
)

// PathCheck is an Agent's AllowedRest as a value of one pointer, with the
// Agent's policy in it: what a cache keeps beside each origin's key, so
// that a hit goes from the key to the rules without loading the Agent.
// The zero PathCheck holds no rules and must not be asked; compare with
// PathCheck{} to tell. It is immutable and safe for concurrent use.
type PathCheck struct{ rules *compile.RuleSet }

// PathCheck returns a's AllowedRest as a value. Under FullDisallow it
// holds the rules of a file that disallows every path, shared by all such
// checks.
func (a *Agent) PathCheck() PathCheck {
	if a.Policy() == FullDisallow {
		return PathCheck{disallowAll}
	}
	return PathCheck{a.rules}
}

// Allowed is the AllowedRest of the Agent c was taken from.
func (c PathCheck) Allowed(rest string) bool { return allowedRest(c.rules, rest) }

// MemoryBytes returns the MemoryBytes of the Robots whose rules c holds, as
// checks have grown it so far: a cache that charges for what it keeps
// reads it before and after a check. Under FullDisallow it is that of the
// shared file, which checks do not grow past its first.
func (c PathCheck) MemoryBytes() int64 { return c.rules.Metered() }

// disallowAll is the rule set of "Disallow: /" for every agent: a rest is
// always read as a path that starts with '/'.
var disallowAll = Parse([]byte("User-agent: *\nDisallow: /\n")).Agent("*").rules

// PathStart returns the index in rawURL of the '/', '?' or ';' that its
// path, parameters and query start with, as Google reads a URL (Agent's
// Allowed), or -1 when it has none before a '#': what a crawler splits a
// URL at for AllowedRest, the part before being the origin as written.
func PathStart(rawURL string) int { return runtime.PathStart(rawURL) }

// allowedRest is the one reading of a URL's rest, from its path on, that
// every check by URL goes through: rules' verdict, the policy aside.
func allowedRest(rules *compile.RuleSet, rest string) bool {
	// Most paths start with '/', and are read in place up to their '#'.
	if rest != "" && rest[0] == '/' {
		return rules.AllowedBeforeFragment(rest)
	}
	return rules.Allowed("/", rawurl.BeforeFragment(rest), "")
}
