// Package runtime is everything that happens to a URL before a compiled
// rule set sees it, and the one call that then asks the rule set.
//
// A rule matches the path, parameters and query of a URL ("/a;p?q=1"): the
// scheme, authority and fragment are removed and nothing is re-encoded, as
// RFC 9309 section 2.2.2 and Google's reference parser both do. Path
// extraction never fails: a string that is not a URL yields "/".
//
// What the rules then see depends on the mode the file was read in
// (subject.go):
//
//   - Google mode matches what Google's reference parser matches: the path
//     up to its first NUL byte, because the reference hands the path to its
//     matcher as a C string.
//   - RFC mode normalises the path's percent-encoding as the patterns'
//     (RFC 9309 section 2.2.2), matches every octet, a NUL included, and
//     allows /robots.txt without consulting the rules (section 2.2.2).
//
// Input says what a check is about (a URL string, a *url.URL, or a path),
// and Matcher.Decide and Matcher.Allowed answer for it. In Google mode a
// check copies nothing: the path is fed to the automaton in pieces, a
// *url.URL's path escaped on the fly.
//
// This package is an implementation layer of package robots: its API may
// change between versions; package robots is the stable one.
package runtime
