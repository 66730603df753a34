package runtime

import (
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/rawurl"
)

// Hot returns the automaton that decides a verbatim check straight from
// the path, once the rules are compiled, and nil while they are cold or
// when the dialect rewrites paths first. A check given a raw URL walks it
// over the URL's own bytes (automaton.Set.AllowedBeforeFragment from
// PathStart), with no substring built and no Matcher call between.
func (m Matcher) Hot() *automaton.Set {
	if !m.rules.Verbatim() {
		return nil
	}
	return m.rules.HotSet()
}

// AllowedRooted reports whether the part of a URL from its path on, rest,
// is allowed: a path that starts with '/', then whatever parameters,
// query and fragment follow, as rawURL[i:] for i = RootedStart(rawURL)
// gives it. Once the rules are compiled, a verbatim check walks rest in
// place up to its '#'. Any string is accepted: the verdict is always
// AllowedPath of rest up to its first '#'.
func (m Matcher) AllowedRooted(rest string) bool {
	if s := m.Hot(); s != nil && rest != "" && rest[0] == '/' {
		return s.AllowedBeforeFragment(rest)
	}
	return m.AllowedPath(rawurl.BeforeFragment(rest))
}
