// Package automaton decides which of a group's rules applies to a path.
//
// A rule set is a list of patterns, each with a priority and a kind (allow
// or disallow). A pattern matches a path when it matches a prefix of it:
// '*' matches any run of bytes (the empty one too) and a '$' that ends the
// pattern matches only the end of the path; every other byte, '$' elsewhere
// included, matches itself. Among the matching patterns the one with the
// highest priority wins, and allow wins a tie (RFC 9309 section 2.2.2).
//
// Set is the matcher: it orders the patterns so that the first one that
// matches is the winner, and tests them in that order. Match is the
// definition of a single pattern match; it runs in O(len(pattern) ×
// len(path)) time at worst and never allocates.
package automaton
