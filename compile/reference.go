package compile

import "github.com/fastrobots/robots/automaton"

// Reference returns the verdict Google's reference parser reaches for
// path (the path, parameters and query of a URL) on rules, a selection's
// rules in group and file order, read in dialect d; the verdict's ID
// indexes rules. It is the meaning of a rule set, written for reading
// rather than speed, that every tier of a RuleSet must agree with:
//
//   - the path is read as the dialect reads it (Dialect.Subject); in RFC
//     mode /robots.txt is allowed without a rule (RFC 9309 section 2.2.2);
//   - a rule's pattern is its escaped value (EscapePattern), normalised in
//     RFC mode as the path is, and an allow of an index page also stands
//     for its directory (appendPatterns);
//   - each pattern is tested on its own (automaton.Reference): the longest
//     match wins, allow wins a tie, and of equals the first rule wins.
func Reference(rules []Rule, path string, d Dialect) Verdict {
	path = d.Subject(path)
	if d.ImplicitRobotsTxt && path == robotsTxtPath {
		return Verdict{Allow: true, Implicit: true}
	}
	var patterns []automaton.Pattern
	for i, r := range rules {
		patterns = d.appendPatterns(patterns, r.Pattern, r.Allow, int32(i))
	}
	return verdictOf(automaton.Reference(patterns, path))
}
