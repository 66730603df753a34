package runtime

import "github.com/fastrobots/robots/automaton"

// Hot returns the automaton that decides a verbatim check straight from
// the path, once the rules are compiled, and nil while they are cold or
// when the dialect rewrites paths first. A check given a raw URL walks it
// over the URL's own bytes (automaton.Set.AllowedBeforeFragment from
// PathStart), with no substring built and no Matcher call between.
func (m Matcher) Hot() *automaton.Set {
	if !m.verbatim {
		return nil
	}
	return m.rules.HotSet()
}
