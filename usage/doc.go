// Package usage reads the statements of preference a site attaches to its
// content: the Content-Usage rule of robots.txt and the Content-Usage HTTP
// header field (draft-ietf-aipref-attach-05, with the vocabulary of
// draft-ietf-aipref-vocab-08), and Cloudflare's Content-Signal line.
//
// The model has four layers:
//
//   - A statement of preference (Preference) assigns each category of use
//     of the vocabulary (Category, one table in vocab.go: train-ai, ai-use
//     and search) one of three values: Yes, No or Unknown. It is written
//     as an RFC 9651 dictionary ("train-ai=n, search=y"), which
//     ParseDictionary reads; tokens y and n are the only values with a
//     meaning, everything else is Unknown. Statements written for
//     vocab-07 read the same: its two labels are vocab-08's.
//   - A Content-Usage rule (Rule) attaches a statement to a path pattern
//     within a robots.txt group. For a URL the rules with the longest
//     matching pattern decide; rules with the same pattern combine so that
//     the most restrictive value wins (No over Yes over Unknown), and the
//     order of the rules carries no meaning. A URL the group does not let
//     the crawler fetch has no preference at all.
//   - A Content-Signal line (Signal) states yes or no for Cloudflare's
//     three uses (search, ai-input, ai-train) and, with its use key, a
//     Level (immediate < reference < full) for the whole group, with no
//     path. Its keys are another vocabulary, in signal.go and level.go.
//   - A Purpose is what a crawler does with the content: trains a model,
//     feeds it to a model at answer time, or builds a search index.
//     Usage.For answers a purpose by vocab-08's precedence (Search
//     overrides the other categories, section 4.3), then by the
//     Content-Signal key of the purpose; Usage.MayUseAt answers a use
//     level. docs/usage.md gives the rules and how to combine the answers.
//
// Decide turns a group's rules and signals and a URL path into a Usage:
// for each category and each signal the value and the line that decided
// it. A Set (NewSet) holds the same lines prepared once, for deciding many
// URLs with the same answers at a fraction of the cost.
//
// This package reads values, not files: finding the lines, their groups
// and the crawl verdict is the robots parser's work, which hands Decide
// the escaped patterns and the verdict. The pattern matcher here (match.go)
// is a plain one with the semantics of the engine's ('*' any run of bytes,
// a final '$' anchors); the engine may answer with its own.
//
// Every parse is bounded by the limits in limits.go, and no input makes a
// function of this package panic.
package usage
