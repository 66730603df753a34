// Package runtime is everything that happens to a URL before a compiled
// rule set sees it, and the one call that then asks the rule set.
//
// A rule matches the path, parameters and query of a URL ("/a;p?q=1"): the
// scheme, authority and fragment are removed and nothing is re-encoded, as
// RFC 9309 section 2.2.2 and Google's reference parser both do. Path
// extraction never fails: a string that is not a URL yields "/".
//
// What the rules then see depends on the mode the file was read in, as
// its compile.Dialect says (subject.go):
//
//   - Google mode matches what Google's reference parser matches: the path
//     up to its first NUL byte, because the reference hands the path to its
//     matcher as a C string.
//   - RFC mode normalises the path's percent-encoding as the patterns'
//     (RFC 9309 section 2.2.2), matches every octet, a NUL included, and
//     allows /robots.txt without consulting the rules (section 2.2.2).
//
// Input says what a check is about (a URL string, a *url.URL, or a path),
// and Matcher.Decide and Matcher.Allowed answer for it, handing the path's
// pieces to the rule set, which chooses the tier that answers
// (compile.RuleSet.Decide). In Google mode a check copies nothing: the
// pieces are joined on the stack for the cold tier and fed one by one to
// the automaton, a *url.URL's path escaped on the stack or, once the
// automaton is built, on the fly.
//
// This package is an implementation layer of package robots: its API may
// change between versions; package robots is the stable one.
package runtime
