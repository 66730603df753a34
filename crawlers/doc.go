// Package crawlers is the table of the crawler tokens webmasters name in
// robots.txt in 2026: for each, who operates it, what it fetches for, and
// whether its operator says it follows robots.txt, with the operator's
// own page that says so. docs/crawlers.md prints the table with its
// sources.
//
// The table is data for the tools that explain a file, not part of the
// robots.txt verdict: a group naming a token is selected by the same
// rules whatever the table says of it. All returns every row, Lookup finds
// the row of a token (compared without ASCII case, as robots.txt compares
// its User-agent values), Default the AI crawlers a survey answers for by
// default, and WithPurpose the rows of a purpose. Crawler.UsagePurposes
// names the questions of package usage a crawler of the row asks.
//
// Each row was checked against its operator's page on the date Checked.
// Operators change their pages: a row says what the page said then, and
// its URL is where to check it again.
package crawlers
