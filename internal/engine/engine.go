// Package engine carries what the module's own packages need of the
// engine beneath package robots, so that they import robots and this,
// never compile, automaton or runtime, and robots exports nothing for
// them alone.
//
// Package fetch keeps an Agent's compiled rules in its cache entries and
// checks, with them, the part of a URL from its path on, which it has
// found already to look the origin up: Rules and PathStart.
package engine

import (
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/runtime"
)

// Rules is an agent's compiled rules, without the policy of its Robots,
// which the caller honours first. The zero Rules holds none.
type Rules struct{ rs *compile.RuleSet }

// RulesOf returns rs as Rules.
func RulesOf(rs *compile.RuleSet) Rules { return Rules{rs} }

// AgentRules returns the rules of a *robots.Agent, given as agent. Package
// robots sets it when it is initialised; it is nil before.
var AgentRules func(agent any) Rules

// Kept reports whether r holds rules.
func (r Rules) Kept() bool { return r.rs != nil }

// AllowedBeforeFragment reports whether the rules allow rest, the part of
// a URL from the '/' its path starts with (PathStart) on, read up to
// its '#'.
func (r Rules) AllowedBeforeFragment(rest string) bool { return r.rs.AllowedBeforeFragment(rest) }

// Allowed reports whether the rules allow the path a+b.
func (r Rules) Allowed(a, b string) bool { return r.rs.Allowed(a, b, "") }

// Metered returns the memory of the file the rules come from, as its
// meter has counted it so far (robots.Robots.MemoryBytes): checks grow it
// as they build automaton states.
func (r Rules) Metered() int64 { return r.rs.Metered() }

// PathStart returns the index of rawURL's path, parameters and query, at
// a '/', '?' or ';', or -1 when it has none (runtime.PathStart).
func PathStart(rawURL string) int { return runtime.PathStart(rawURL) }

// BodyLimit returns how many bytes of a body Parse reads under
// robots.WithMaxBytes(maxBytes): n > 0 reads n, 0 the default, n < 0 all.
func BodyLimit(maxBytes int) int { return compile.Options{MaxBytes: maxBytes}.BodyLimit() }
