// Package automaton decides which of a group's rules applies to a path, in
// one left-to-right pass over the path.
//
// A rule set is a list of patterns, each with a priority and a kind (allow
// or disallow). A pattern matches a path when it matches a prefix of it:
// '*' matches any run of bytes (the empty one too) and a '$' that ends the
// pattern matches only the end of the path; every other byte, '$' elsewhere
// included, matches itself. Among the matching patterns the one with the
// highest priority wins, and allow wins a tie (RFC 9309 section 2.2.2).
// Patterns are ranked once (rank), so the winner is the matching pattern
// of lowest rank.
//
// A Set holds two matchers of the ranked patterns: a lazy DFA, which
// decides every check while its memory budget (DefaultBudget) lasts, and a
// segment scanner, its fallback once the budget is spent.
//
//   - prog.go: the position automaton the DFA is built on.
//   - dfa.go: the lazy DFA. A state is the set of live positions plus the
//     best pattern already matched; a state with no position left is
//     final, and one whose positions all allow as the best does is
//     settled: the rest of the path cannot change the verdict. States are
//     built the first time a check reaches them.
//   - rows.go, table.go: a state's transitions: a short list at first, and
//     a row of the transition table once checks come back to it. The hot
//     loop walks rows, one table load a byte.
//   - columns.go: what checks read of sparse states, published by atomic
//     stores, so that only building takes the mutex.
//   - kernel.go: a state's positions, stored or replayed.
//   - glob.go: a pattern read once (Glob): its key, the pieces between its
//     stars, whether '$' anchors it. Every reader of a pattern's operators
//     takes them from here: the positions, the scanner, Match, Classify,
//     and compile's cold index.
//   - scan.go: the segment scanner. Each pattern is its Glob's key and
//     pieces; an Aho–Corasick automaton over
//     all pieces (trie.go) reports where pieces end. Its time is linear in
//     the path and its memory in the patterns; scan.go states both bounds.
//
// When the budget refuses a state a check needs, the check starts over on
// the scanner from the path's first byte (a Cursor, which does not keep
// its pieces, reports NeedsRestart instead). When not even the start
// state fits, every check runs on the scanner.
//
// reference.go states what all of this computes: Matches is what a pattern
// means, and Reference applies it to a rule set. Every fast form (Match,
// the DFA, the scanner, and compile's cold index) is tested against it.
// Pattern.Beats is the one definition of the priority rule.
//
// This package is the lowest layer of the engine beneath package robots:
// compile builds its Sets, and robots, lint and usage read its patterns;
// fetch and compat never import it. Its API may change between versions.
package automaton
