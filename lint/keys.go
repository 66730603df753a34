package lint

import (
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
)

// checkDirective reports a line Google reads no directive on and a key
// Google reads only through its leniency, as Google's report of the line
// says, and returns the directive with the positions of its parts.
func (l *linter) checkDirective(ln line) (compile.Token, fields, bool) {
	read := ln.read
	if !read.HasDirective {
		if !read.Empty && !read.Comment {
			l.checkUnparsed(ln)
		}
		return compile.Token{}, fields{}, false
	}
	ks, ke := read.KeyBounds()
	vs, ve := read.ValueBounds()
	key, value := l.body[ks:ke], l.body[vs:ve]
	f := fields{key: ks - read.Start, value: vs - read.Start}
	kind := compile.Unknown
	if read.Tag != robots.TagUnknown && read.Tag != robots.TagUnused {
		kind = compile.Kind(read.Tag) // a Tag's first values are those of Kind
	}
	tok := compile.Token{Line: ln.num, Kind: kind, Key: key, Value: value}
	if kind == compile.Unknown {
		return tok, f, true
	}
	_, spelling, _ := compile.ClassifyKey(key, compile.Google)
	rest := key[len(spelling):]
	runsOn := rest != "" && (rest[0] == ' ' || rest[0] == '\t')
	if read.Typo || rest != "" && !runsOn {
		// One of Google's typos, or a key that goes on past the field name.
		shown := key
		if runsOn {
			shown = key[:len(spelling)]
		}
		l.report(ln.num, f.key+1, CodeAcceptedTypo,
			"Google reads %q as %q; RFC 9309 and other crawlers may not: write %q", shown, kindName(kind), kindName(kind))
	}
	if runsOn {
		// "Sitemap http://x": the colon the line was split at is the value's.
		l.report(ln.num, f.key+len(spelling)+1, CodeMissingColon,
			"no colon after %q: Google splits the line at the colon after %q, reads that as a %s key and only %q as the value",
			key[:len(spelling)], key, kindName(kind), value)
	}
	if read.MissingColon {
		l.report(ln.num, f.key+len(key)+1, CodeMissingColon,
			"no colon after %q: Google reads the line as \"%s: %s\", RFC 9309 and other crawlers ignore it", key, kindName(kind), value)
	}
	return tok, f, true
}

// checkUnparsed reports a line with content that holds no directive.
func (l *linter) checkUnparsed(ln line) {
	s := stripComment(ln.text())
	i := skipSpace(s, 0)
	if i == len(s) {
		return // the report said otherwise: never index past the line
	}
	if s[i] == ':' {
		l.report(ln.num, i+1, CodeUnparsedLine, "nothing before the colon: the line is ignored")
		return
	}
	l.report(ln.num, i+1, CodeUnparsedLine,
		"no colon, and not the two words Google reads as key and value: the line is ignored")
}

// nonStandard are the directives Google's report calls recognised but
// unused (robots.TagUnused): who reads them, and how their values are
// checked (nil: any value).
var nonStandard = map[string]struct {
	who   string
	valid func(string) bool
	want  string
}{
	"crawl-delay": {"Bing and other crawlers read it", okOf(compile.ParseCrawlDelay),
		"a number of seconds, such as 10 or 0.5"},
	"request-rate": {"a few crawlers read it", okOf(compile.ParseRequestRate),
		"requests/seconds, such as 1/5 or 1/10s"},
	"visit-time": {"a few crawlers read it", okOf(compile.ParseVisitTime),
		"a UTC time range HHMM-HHMM, such as 0600-0845"},
	"host": {"Yandex defined it", okOf(compile.ParseHost),
		"a host name with an optional scheme and port, such as https://www.example.com"},
	"clean-param": {"Yandex reads it", okOf(compile.ParseCleanParam),
		"parameters joined by & and an optional path, such as ref&sid /forum/"},
	"noindex":        {"it stopped reading it in 2019: use a robots meta tag or an X-Robots-Tag header", nil, ""},
	"content-signal": {"some AI crawlers read it", nil, ""},
	"content-usage":  {"crawlers that follow the IETF AI preferences drafts read it", nil, ""},
	"domain":         {"other crawlers may read it", nil, ""},
	"noarchive":      {"other crawlers may read it; Google reads noarchive only in a robots meta tag", nil, ""},
	"nofollow":       {"other crawlers may read it; Google reads nofollow only in a robots meta tag or a link's rel", nil, ""},
	"revisit-after":  {"other crawlers may read it", nil, ""},
}

func okOf[T any](parse func(string) (T, bool)) func(string) bool {
	return func(s string) bool { _, ok := parse(s); return ok }
}

// checkUnknown reports a directive Google does not read: a key Google's
// report calls unused, or one it does not know.
func (l *linter) checkUnknown(num int, read *robots.LineReport, tok compile.Token, f fields) {
	if strings.Contains(tok.Key, utf8BOM) {
		return // a stray byte order mark, reported as such
	}
	name := strings.ToLower(tok.Key)
	if read.Tag == robots.TagUnused {
		ns := nonStandard[name]
		if ns.valid != nil && !ns.valid(tok.Value) {
			l.report(num, f.value+1, CodeInvalidValue, "invalid %s value %q: the crawlers that read it expect %s (Google ignores the line anyway)",
				tok.Key, tok.Value, ns.want)
			return
		}
		l.report(num, f.key+1, CodeIgnoredByGoogle, "Google ignores %s; %s", tok.Key, ns.who)
		return
	}
	if name == keyLLMPolicy {
		l.report(num, f.key+1, CodeLLMPolicy,
			"%s points AI crawlers to a policy document (%q): Google ignores the line (its report reads an unknown key), and crawler-commons, with its LLM_POLICY extension enabled, reads the value as a statement about the whole file, wherever the line stands",
			tok.Key, tok.Value)
		return
	}
	msg := "unknown directive %q: Google and RFC 9309 define no such key, and the line is ignored"
	if name == "http" || name == "https" {
		l.report(num, f.key+1, CodeUnknownDirective, msg+"; a sitemap needs its key: \"Sitemap: %s:%s\"", tok.Key, tok.Key, tok.Value)
		return
	}
	if s := suggest(name); s != "" {
		l.report(num, f.key+1, CodeUnknownDirective, msg+"; did you mean %q?", tok.Key, s)
		return
	}
	l.report(num, f.key+1, CodeUnknownDirective, msg, tok.Key)
}

// keyLLMPolicy is the key of the LLM-Policy extension, lower case:
// crawler-commons (RobotsExtension.LLM_POLICY, its pull request 569 of
// 2026-06-30) reads it when enabled, as a directive of the whole file
// whose value, kept as written, points to a policy for AI crawlers such
// as /llms.txt. Google's parser does not know the key.
const keyLLMPolicy = "llm-policy"

// knownKeys are the keys suggest proposes.
var knownKeys = []string{"User-agent", "Allow", "Disallow", "Sitemap", "Crawl-delay", "Clean-param", "Request-rate", "Visit-time", "LLM-Policy"}

// suggest returns the known key within two edits of key, if any.
func suggest(key string) string {
	for _, k := range knownKeys {
		if editDistance(key, strings.ToLower(k), 2) <= 2 {
			return k
		}
	}
	return ""
}

// editDistance returns the Levenshtein distance of a and b, or max+1 once
// it is known to exceed max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
