package lint

// Code names a kind of finding. Codes are stable: tools may match on them.
type Code string

// The codes, in the order docs/lint.md lists them.
const (
	// Bytes.
	CodeTruncated   Code = "truncated"     // content past the 500 KiB Google reads
	CodeLineTooLong Code = "line-too-long" // a directive cut at the line-length limit
	CodeNUL         Code = "nul-byte"      // a NUL byte hides the rest of its line
	CodeStrayBOM    Code = "stray-bom"     // a byte order mark that is not the file's first bytes
	CodeInvalidUTF8 Code = "invalid-utf8"  // bytes that are not UTF-8 outside comments
	CodeUTF16       Code = "utf16"         // the file is UTF-16, which Google reads as bytes
	CodeHTML        Code = "html"          // an HTML page served as robots.txt

	// Lines.
	CodeUnknownDirective Code = "unknown-directive" // a key no crawler is known to read
	CodeAcceptedTypo     Code = "accepted-typo"     // a misspelt key Google reads as the right one
	CodeMissingColon     Code = "missing-colon"     // "Disallow /x": Google reads it, others may not
	CodeUnparsedLine     Code = "unparsed-line"     // a line that holds no directive and is ignored
	CodeIgnoredByGoogle  Code = "ignored-by-google" // crawl-delay and the like
	CodeInvalidValue     Code = "invalid-value"     // a non-standard directive its readers cannot read

	// Groups.
	CodeRuleOutsideGroup  Code = "rule-outside-group"  // a rule before any user-agent line
	CodeAgentWithoutRules Code = "agent-without-rules" // a user-agent line whose group goes on past other lines
	CodeAgentTokenCut     Code = "agent-token-cut"     // "Googlebot/2.1" is read as "Googlebot"
	CodeEmptyAgent        Code = "empty-agent"         // a user-agent value that names no crawler

	// Patterns.
	CodePatternNoSlash Code = "pattern-no-slash" // a pattern that starts with neither '/' nor '*'
	CodeEmptyAllow     Code = "empty-allow"      // "Allow:" with no value
	CodeDollarInside   Code = "dollar-inside"    // a '$' that is not the pattern's last byte
	CodeTrailingStar   Code = "trailing-star"    // a '*' at the end of a pattern

	// Sitemaps.
	CodeSitemapRelative Code = "sitemap-relative" // a sitemap URL with no scheme
	CodeSitemapInvalid  Code = "sitemap-invalid"  // a sitemap URL that is not http(s) or not a URL

	// Precedence.
	CodeEqualPriority Code = "equal-priority" // an allow and a disallow of equal length matching the same paths
	CodeDeadRule      Code = "dead-rule"      // a rule a longer rule of the other kind always beats

	// Usage preferences.
	CodeUsageMalformed     Code = "usage-malformed"      // a Content-Usage or Content-Signal value that states nothing
	CodeUsageUnknownKey    Code = "usage-unknown-key"    // a key outside the vocabulary, ignored
	CodeUsagePathNoSlash   Code = "usage-path-no-slash"  // a Content-Usage path that does not start with '/'
	CodeSignalOutsideGroup Code = "signal-outside-group" // a Content-Signal line before any user-agent line
	CodeUsageConflict      Code = "usage-conflict"       // opposite statements for one path of one group
	CodeUsageDisallowed    Code = "usage-disallowed"     // a preference on a path its group disallows
	CodeSplitStarGroup     Code = "split-star-group"     // a second '*' group after a managed Content-Signal block

	// Notes: what else reads a line, or who wrote it.
	CodeLLMPolicy            Code = "llm-policy"             // an LLM-Policy line, an extension crawler-commons reads
	CodeCrawlerIgnoresRobots Code = "crawler-ignores-robots" // a group naming a crawler whose operator says it may not follow robots.txt
	CodeManagedSection       Code = "managed-section"        // a block a CDN wrote into the file (package managed)
	CodeManagedOverride      Code = "managed-override"       // a line of the site's own that the CDN's lines override for some crawlers
)

// CodeInfo describes a code.
type CodeInfo struct {
	Code     Code
	Severity Severity
	Summary  string
}

// Codes lists every code with its severity, in a stable order.
var Codes = []CodeInfo{
	{CodeTruncated, Error, "content after the first 500 KiB, which Google ignores"},
	{CodeLineTooLong, Error, "a directive longer than the 16,663 bytes of a line Google reads"},
	{CodeNUL, Error, "a NUL byte, which ends its line's content for Google"},
	{CodeStrayBOM, Error, "a byte order mark that is not at the start of the file"},
	{CodeInvalidUTF8, Warning, "bytes that are not UTF-8 in a directive"},
	{CodeUTF16, Error, "a UTF-16 file, in which Google finds no directive"},
	{CodeHTML, Error, "HTML served as robots.txt"},
	{CodeUnknownDirective, Error, "a key no known crawler reads"},
	{CodeAcceptedTypo, Warning, "a misspelt key that Google reads as the right one"},
	{CodeMissingColon, Warning, "a directive without a colon, which Google reads and others may not"},
	{CodeUnparsedLine, Error, "a line that holds no directive"},
	{CodeIgnoredByGoogle, Warning, "a directive Google ignores and other crawlers read"},
	{CodeInvalidValue, Error, "a value the crawlers that read the directive cannot read"},
	{CodeRuleOutsideGroup, Error, "an allow or disallow line before any user-agent line"},
	{CodeAgentWithoutRules, Warning, "a user-agent line whose group goes on past other lines"},
	{CodeAgentTokenCut, Warning, "a user-agent value Google cuts to its leading product token"},
	{CodeEmptyAgent, Error, "a user-agent value that names no crawler"},
	{CodePatternNoSlash, Error, "a pattern that starts with neither '/' nor '*' and never matches"},
	{CodeEmptyAllow, Warning, "an allow line with no pattern, which has no effect"},
	{CodeDollarInside, Warning, "a '$' that is not the last byte, which matches a literal '$'"},
	{CodeTrailingStar, Warning, "a '*' at the end of a pattern, which matches nothing more"},
	{CodeSitemapRelative, Error, "a sitemap URL that is not absolute"},
	{CodeSitemapInvalid, Error, "a sitemap URL that is not an http or https URL"},
	{CodeEqualPriority, Error, "an allow and a disallow of equal length that match the same paths"},
	{CodeDeadRule, Error, "a rule that a longer rule of the other kind always beats"},
	{CodeUsageMalformed, Error, "a Content-Usage or Content-Signal value, or part of one, that states nothing"},
	{CodeUsageUnknownKey, Warning, "a preference key outside the vocabulary, which is ignored"},
	{CodeUsagePathNoSlash, Error, "a Content-Usage path that does not start with '/', so the line does not parse"},
	{CodeSignalOutsideGroup, Warning, "a Content-Signal line before any user-agent line, read as applying to every group"},
	{CodeUsageConflict, Warning, "opposite preferences for one path of one group, of which the most restrictive wins"},
	{CodeUsageDisallowed, Warning, "a preference on a path its group disallows, which means nothing"},
	{CodeSplitStarGroup, Warning, "a second user-agent * group after one holding a Content-Signal line"},
	{CodeLLMPolicy, Note, "an LLM-Policy line: Google ignores it, crawler-commons reads it as a file-wide extension"},
	{CodeCrawlerIgnoresRobots, Note, "a group naming a crawler whose operator says it may not follow robots.txt"},
	{CodeManagedSection, Note, "a block a CDN wrote into the file before the site's own rules"},
	{CodeManagedOverride, Note, "site lines that the CDN's lines take over for some crawlers: never read, merged, or always beaten"},
}

// severities maps each code to its severity.
var severities = func() map[Code]Severity {
	m := make(map[Code]Severity, len(Codes))
	for _, c := range Codes {
		m[c.Code] = c.Severity
	}
	return m
}()

// Severity returns the severity of findings with code c.
func (c Code) Severity() Severity { return severities[c] }
