// Package compile turns robots.txt bytes into groups of rules and rule sets
// ready for matching.
//
// The model follows Google's open-source reference parser line for line,
// because crawlers depend on reaching the verdict Google reaches:
//
//   - The body is split into lines at LF, CR or CRLF (lex.go); a UTF-8 byte
//     order mark, or a prefix of one, is skipped. A line keeps at most
//     MaxLineBytes bytes; a NUL byte ends its content.
//   - Each line is reduced to a key and a value (lex.go, quickline.go): '#'
//     starts a comment, white space is trimmed, and the key ends at the
//     first ':', or in Google mode at the space of a two-word line.
//   - Keys are classified by case-insensitive prefix (key.go): user-agent,
//     allow, disallow, sitemap, with the typos Google accepts; any other
//     key is an unknown directive, kept.
//   - Allow and disallow values are escaped (escape.go): bytes outside ASCII
//     become %XX and %xx escapes are upper-cased. Nothing is decoded.
//   - Lines are grouped (parse.go): consecutive user-agent lines share the
//     rules that follow them; a user-agent line after a rule starts a new
//     group. The parse keeps compact records; Group, Rule and Directive
//     values are built on first use (view.go).
//   - For a crawler's agent, every group naming it is merged; when none
//     does, every '*' group is (resolve.go, names.go).
//   - The merged rules become a tiered rule set (ruleset.go): its first
//     checks test the rules indexed by literal prefix (coldindex.go), which
//     a path that holds no key's first bytes skips (coldlead.go), or by a
//     rare two-byte substring (coldgram.go); after HotAfter checks it
//     compiles an automaton.Set. Every check enters through check.go, which
//     alone chooses the tier that answers it.
//   - reference.go states what a rule set decides, for reading (Reference);
//     every tier is tested against it.
//
// Strict RFC 9309 mode (Mode RFC) drops the leniencies the RFC does not
// define: typos and prefixes of field names, missing colons, a global
// agent followed by more, the index.html rule and the end of the path at a
// NUL; it normalises percent-encoding (RFC 9309 2.2.2) and allows
// /robots.txt. A mode is read as its Dialect (mode.go), one field per such
// point, which every step consults. docs/semantics.md lists every rule
// with its source and its test.
//
// This package is a layer of the engine beneath package robots. Packages
// robots, lint and usage import it, and the module's internal packages;
// fetch and compat reach it only through robots.
// Package robots hands out data types of its own (Group, Rule, Report,
// ...), made from this package's of the same names and fields: the views
// in its types are built here (GroupsAs), and TestTypesMirrorCompile holds
// the two sets of fields together. This package's API may change between
// versions.
package compile
