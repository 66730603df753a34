package compile

import "github.com/fastrobots/robots/automaton"

// Reference returns the verdict Google's reference parser reaches for
// path, the path, parameters and query of a URL, on rules, the rules of a
// selection in group and file order, read in dialect d: the ID of the
// verdict indexes rules. It is the meaning of a rule set, written for
// reading rather than speed, that a RuleSet's tiers must agree with:
//
//   - the path is read as the dialect reads it (Dialect.Subject): up to
//     its first NUL in Google mode, percent-encoding normalised in RFC mode,
//     where /robots.txt is allowed without a rule (RFC 9309 section 2.2.2);
//   - a rule's pattern is its value as the parser escaped it
//     (EscapePattern), in RFC mode normalised as the path is, and an allow
//     of an index page also stands for its directory (appendPatterns);
//   - every pattern is tested on its own (automaton.Reference,
//     automaton.Matches): the longest match wins, allow wins a tie, and of
//     equals the first rule wins.
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
