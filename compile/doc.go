// Package compile turns robots.txt bytes into groups of rules and rule sets
// ready for matching.
//
// The model follows Google's open-source reference parser line for line,
// because crawlers depend on reaching the same verdict Google reaches:
//
//   - The body is split into lines at LF, CR or CRLF (lex.go). A UTF-8 byte
//     order mark, or any prefix of one, is skipped at the very start. A line
//     keeps at most MaxLineBytes bytes; a NUL byte ends the line's content.
//   - Each line is reduced to a key and a value (lex.go): a '#' starts a
//     comment, white space is trimmed, and the key ends at the first ':'. In
//     Google mode a line without a colon that has exactly two words is read as
//     "key value". Lines of the commonest shape, a canonical key, its colon
//     and a value up to the line break, are read in one pass over their
//     bytes (quickline.go); the reading is the same.
//   - Keys are classified by case-insensitive prefix (key.go): user-agent,
//     allow, disallow, sitemap, with the common typos Google accepts, all
//     read from one table (fields). Everything else is an unknown
//     directive, kept for callers that want it.
//   - Allow and disallow values are escaped (escape.go): bytes outside ASCII
//     become %XX and existing %xx escapes are upper-cased. Nothing is decoded.
//   - Lines are grouped (parse.go): consecutive user-agent lines share the
//     rules that follow them; a user-agent line after any other directive
//     starts a new group; sitemap and unknown lines do not. The parse keeps
//     compact records and one arena of the bytes they name; the Group, Rule
//     and Directive values are built on first use (view.go), and a parse
//     of a 17 KB file allocates about 19 KiB in 16 allocations
//     (BenchmarkShopParse in bench/).
//   - For a crawler's agent, every group naming that agent is merged; when
//     none names it, every '*' group is merged (resolve.go, names.go).
//   - The merged rules become a tiered rule set (ruleset.go): its first
//     checks test the rules whose literal prefix the path starts with
//     (coldindex.go) and, in a file with many star patterns, those filed
//     under a two-byte substring the path holds (coldgram.go); after
//     HotAfter checks it compiles an automaton.Set. Every check enters
//     through the methods of check.go, which alone choose the tier that
//     answers it.
//   - reference.go states what a rule set decides, written for reading
//     (Reference): every tier is tested against it.
//
// Strict RFC 9309 mode (Mode RFC) drops the leniencies the RFC does not
// define: typos and prefixes of field names, missing colons, a global
// agent followed by more, the index.html rule and the end of the path at
// a NUL; it normalises percent-encoding (RFC 9309 2.2.2) and allows
// /robots.txt.
// A mode is read as its Dialect (mode.go), one field per such point,
// which the File keeps and every step consults.
// docs/semantics.md lists every rule with its source and its test.
//
// Configuration is a struct passed by value where the work is done: Parse
// takes Options, and Compile takes the automaton.Options of the automaton
// it builds. Zero fields mean the defaults.
//
// This package is a layer of the engine beneath package robots. Packages
// robots, lint and usage import it, and the module's internal packages;
// fetch and compat reach it only through robots (and internal/engine).
// Its data types (Group, Rule, AgentLine, Directive, Mode, RequestRate,
// VisitTime, Host, CleanParam) are package robots' and are stable; its
// functions and the rest of its types may change between versions.
package compile
