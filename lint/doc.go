// Package lint finds the lines of a robots.txt that are ignored, do not do
// what they seem to do, or rely on a leniency of Google's parser.
//
// Lint reads a file as Google's crawler reads it (the default mode of the
// robots package) and returns one Diagnostic per finding, with its line,
// column, severity (error, warning or note) and a stable code. The checks
// fall in seven families:
//
//   - bytes (encoding.go): the size limit, the line-length limit, NUL
//     bytes, byte order marks, invalid UTF-8, UTF-16, HTML served as a
//     robots.txt;
//   - lines (keys.go): unknown keys, misspelt keys Google accepts, missing
//     colons, lines that hold no directive, directives Google ignores and
//     values their readers refuse;
//   - groups (groups.go): rules outside any group, user-agent lines whose
//     group goes on past other lines, agent values Google cuts;
//   - patterns (patterns.go) and sitemaps (sitemap.go): values that never
//     match or that mean less than they seem;
//   - precedence (overlap.go): rules that can never decide because a rule
//     of the other kind always wins over them;
//   - usage preferences (usage.go, usagegroups.go): Content-Usage and
//     Content-Signal values that state less than they seem, lines outside
//     any group, conflicting statements, statements on disallowed paths,
//     and the second '*' group a prepended managed block leaves;
//   - notes (keys.go, crawlers.go, managed.go): an LLM-Policy line, which
//     crawler-commons reads as an extension; a group naming a crawler whose
//     operator says it may not follow robots.txt (package crawlers); a
//     block a CDN wrote (package managed), and the lines of the site's own
//     it takes over for some crawlers. A note never makes a file fail.
//
// Every finding is sound: a rule is called dead only when another rule
// provably covers it (include.go). docs/lint.md lists every code.
package lint
