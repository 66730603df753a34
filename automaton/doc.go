// Package automaton decides which of a group's rules applies to a path, in
// one left-to-right pass over the path.
//
// A rule set is a list of patterns, each with a priority and a kind (allow
// or disallow). A pattern matches a path when it matches a prefix of it:
// '*' matches any run of bytes (the empty one too) and a '$' that ends the
// pattern matches only the end of the path; every other byte, '$' elsewhere
// included, matches itself. Among the matching patterns the one with the
// highest priority wins, and allow wins a tie (RFC 9309 section 2.2.2).
// Patterns are ranked once (rank): the winner is the matching pattern of
// lowest rank, so "longest wins, allow wins ties" is a minimum.
//
// A Set holds two matchers of the ranked patterns: the lazy DFA, which
// decides every check while its memory budget (DefaultBudget) lasts, and
// the segment scanner, its fallback once the budget is spent. The DFA is
// built on a position automaton, and each of its states is kept in two
// parts, its transitions and its positions, each with a file of its own:
//
//   - prog.go: the position automaton. Every pattern contributes one
//     position per byte plus an end position; a literal position advances on
//     its byte, a star position loops on any byte and may skip to the next.
//   - dfa.go: the lazy DFA. A state is the set of live positions plus the
//     best pattern already matched; positions that can no longer beat it are
//     dropped, so a state with none left is final and ends the pass early.
//     A state whose live positions all belong to patterns that allow as
//     the best does is settled: the rest of the path may change the
//     deciding pattern but not whether the path is allowed, so Set.Allowed
//     stops there too. States are built the first time a check reaches
//     them, within the budget.
//   - rows.go: a state's transitions. A state starts sparse, its
//     transitions a short list; once checks have read rowAfter bytes in
//     it, it gets a row of the transition table. Byte classes keep rows
//     short, rows are premultiplied, and the hot loop (walkFrom, table.go)
//     walks them one table load per byte. Set.AllowedLanes walks four paths
//     at once, interleaved.
//     Most states of a real group are reached by one path, and a row would
//     be most of their memory.
//   - table.go: a version of the transition table as checks read it, and
//     the walk over it. Every read is a Go slice index, bounds-checked.
//   - columns.go: what checks read of sparse states (row, visits, first
//     transition, end verdict) and their transitions, in arrays published
//     by atomic stores: checks read everything built without a lock, and
//     only building a state, a transition or a row takes the mutex.
//   - kernel.go: a state's positions, stored as a varint kernel by one state
//     in replayLimit and replayed, by stepping from the state it was first
//     reached from, for the others.
//   - scan.go: the segment scanner, which does not use the position
//     automaton. Each pattern is split at its stars (glob.go) into a prefix
//     and pieces found leftmost-first; one Aho–Corasick automaton over all
//     pieces (trie.go) reports where pieces end, and each piece keeps a
//     queue of the patterns waiting for it. A check costs
//     O(n·(log P + L/64)) for a path of n bytes, plus at most a step per
//     piece of every pattern, where P is the number of distinct pieces and
//     L the most pieces that can end at one byte (nested suffixes of one
//     another, so L(L+1)/2 is at most the pieces' bytes: about 1,000 for
//     500 KiB); its memory is a small constant per byte of the patterns.
//     scan.go states both bounds. It is built the first time a check needs
//     it, and Stats reports it.
//
// A check walks the DFA; when the budget refuses a state it needs, the
// check starts over on the scanner, which needs the path from its first
// byte (Set.Decide and Set.Allowed do this themselves; a Cursor, fed in
// pieces it does not keep, reports NeedsRestart). When not even the start
// state fits, every check runs on the scanner.
//
// Set ties them together; Cursor runs one check over a path fed in pieces.
// reference.go states what all of this computes, for reading: Matches
// is what a pattern means, and Reference tests the patterns one by one
// with it. Every fast form (Match, the DFA, the scanner, and compile's
// cold index) is tested against it. Pattern.Beats is the one definition
// of the priority rule, used by the ranking here and by explanations and
// lint.
//
// A Set is configured by an Options struct passed to NewSet; the zero
// value gives the defaults. This package is the lowest layer of the engine
// beneath package robots: compile builds its Sets, and robots, lint and
// usage read its patterns; fetch and compat never import it. Its API may
// change between versions.
package automaton
