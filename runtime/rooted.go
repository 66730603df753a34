package runtime

// AllowedRooted is Allowed(FromURL(rawURL)) for a URL whose path begins
// with '/' at start (PathStart(rawURL) == start): once the rules are
// compiled, a verbatim check walks the automaton over rawURL from start to
// its first '#' or its end, without a substring of the path built first.
func (m Matcher) AllowedRooted(rawURL string, start int) bool {
	if s := m.rules.HotSet(); s != nil && m.verbatim {
		return s.AllowedBeforeFragment(rawURL[start:])
	}
	return m.Allowed(FromURL(rawURL))
}
