package fuzzgen

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// Seed is a named input.
type Seed struct {
	Name string
	Body []byte
}

// HostileBodies are robots.txt bodies real servers send that lie outside
// the grammar: byte order marks, look-alike hyphens, HTML, typos, a line
// past the line limit, NUL bytes, invalid UTF-8, UTF-16, bare CRs. They
// seed the fuzz targets that take a body.
func HostileBodies() []Seed {
	const rules = "User-agent: *\nDisallow: /private\nAllow: /private/ok\n"
	long := strings.Repeat("a", MaxLineBytesRef+300)
	// a rule whose line is exactly the line limit, and one a byte longer
	atLimit := "Disallow: /" + strings.Repeat("b", MaxLineBytesRef-len("Disallow: /"))
	return []Seed{
		{"bom", []byte("\xEF\xBB\xBF" + rules)},
		{"bom-partial", []byte("\xEF\xBB" + rules)},
		{"bom-double", []byte("\xEF\xBB\xBF\xEF\xBB\xBF" + rules)},
		{"bom-mid-file", []byte("User-agent: *\n\xEF\xBB\xBFDisallow: /a\nDisallow: /b\n")},
		{"u2010-hyphen", []byte("User\u2010agent: *\nDisallow: /a\nUser-agent: FooBot\nDis\u2010allow: /b\nDisallow: /c\n")},
		{"html", []byte("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
			"<title>404 Not Found</title>\n<style>body { color: red; margin: 0 }</style>\n" +
			"<script>var x = {a: 1, 'Disallow': '/'};</script>\n</head>\n<body>\n" +
			"<h1>Not Found</h1>\n<p>User-agent: * could not be found: Disallow: /</p>\n" +
			"<a href=\"https://example.com/#top\">home</a>\n</body>\n</html>\n")},
		{"typos", []byte("Useragent: FooBot\nDissallow: /a\nDissalow: /b\nDisalow: /c\nDiasllow: /d\n" +
			"Disallaw: /e\nuser agent: BarBot\nDisallowed: /f\nAllowance: /g\nUser-agents: Baz\n" +
			"Site-map: https://example.com/s.xml\nSitemaps: https://example.com/t.xml\n")},
		{"missing-colon", []byte("User-agent FooBot\nDisallow /x\nDisallow /y /z\nAllow\t/x/ok\nDisallow\n" +
			"Disallow /a:b\nCrawl-delay 10\n")},
		{"huge-line", []byte("User-agent: *\nDisallow: /" + long + "\nAllow: /" + long[:100] + "\n")},
		{"line-at-limit", []byte("User-agent: *\n" + atLimit + "\n" + atLimit + "c\nAllow: /\n")},
		{"nul", []byte("User-agent: *\x00bot\nDisa\x00llow: /a\nDisallow: /b\x00/c\n\x00Disallow: /d\n")},
		{"invalid-utf8", []byte("User-agent: \xFF*\nUser-agent: *\nDisallow: /\xFF\xFE\xC3(\xE2\x82\n" +
			"Allow: /\xC0\xAF\xED\xA0\x80\nDisallow: /%C3%A9\xE9\n")},
		{"utf16le-bom", utf16Body(rules, binary.LittleEndian, true)},
		{"utf16be-bom", utf16Body(rules, binary.BigEndian, true)},
		{"utf16le", utf16Body(rules, binary.LittleEndian, false)},
		{"cr-only", []byte("User-agent: *\rDisallow: /a\r\rAllow: /a/b\rUser-agent: FooBot\rDisallow: /")},
		{"line-breaks-mixed", []byte("User-agent: *\r\n\n\rDisallow: /a\n\rAllow: /a/b\r\r\nDisallow: /c")},
		{"stars", []byte("User-agent: *\nDisallow: /" + strings.Repeat("*", 300) + "x$\nAllow: /" +
			strings.Repeat("*a", 100) + "\nDisallow: " + strings.Repeat("*", 50) + "\n")},
		{"dollars", []byte("User-agent: *\nDisallow: /a$b\nDisallow: /$$\nAllow: /c$\nDisallow: $\nAllow: /*$\n")},
		{"index-html", []byte("User-agent: *\nDisallow: /\nAllow: /a/index.html\nAllow: /b/index.htm$\n" +
			"Allow: /c/index.html?x\nAllow: index.html\n")},
		{"percent", []byte("User-agent: *\nDisallow: /%aa\nDisallow: /%2F%2f\nAllow: /%7Efoo\n" +
			"Disallow: /%\nDisallow: /%a\nDisallow: /%zz\nDisallow: /caf\u00e9\n")},
		{"agents", []byte("User-agent: * foo\nDisallow: /a\nUser-agent: *foo\nDisallow: /b\n" +
			"User-agent: Googlebot/2.1\nUser-agent: Foo Bar\nUser-agent:\nDisallow: /c\n" +
			"User-agent: GOOGLEBOT-image\nDisallow: /d\n")},
		{"rules-before-agent", []byte("Disallow: /a\nAllow: /b\nSitemap: https://example.com/s\nUser-agent: *\nDisallow: /c\n")},
		{"others-between", []byte("User-agent: a\nCrawl-delay: 5\nUser-agent: b\nHost: example.com\nDisallow: /\n" +
			"Sitemap: https://example.com/s\nUser-agent: c\nAllow: /\n")},
		{"whitespace", []byte(" \t User-agent \t : \t a \v\f\n\tDisallow\t:\t/x y\t\n\vAllow:/z#c:d\n")},
		{"empty", []byte{}},
		{"only-breaks", []byte("\r\r\n\n\r")},
	}
}

// MaxLineBytesRef is the reference parser's line limit, which the seeds
// cross.
const MaxLineBytesRef = refMaxLine

// utf16Body encodes s as UTF-16, with a byte order mark when bom is set.
func utf16Body(s string, order binary.AppendByteOrder, bom bool) []byte {
	var out []byte
	if bom {
		out = order.AppendUint16(out, 0xFEFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		out = order.AppendUint16(out, u)
	}
	return out
}

// HostileURLs are URLs and non-URLs that seed the targets taking one.
func HostileURLs() []string {
	return []string{
		"", "/", "//", "///", "http://", "https://example.com", "https://example.com/",
		"example.com/a/b", "//a/b/c", "a://b/c", "/a://b", "?q", ";p", "#frag", "/#",
		"http://h/#a/b", "http://h#x/y", "http://h/a?b#c", "http://h?x", "http://h;x",
		"http://\u00fc.example/\u00fc?\u00fc", "http://h/\xFF\xFE", "http://h/a\x00b", "://", ":///",
		"http:/x/y", "HTTP://A/B", "http://h/a b", "http://h/%7e%2F", "http://h//a//b",
		"http://h/a/../b/./c", "http://user:pass@h:8080/p?q", "javascript:alert(1)",
		"mailto:a@b", "http://h/" + strings.Repeat("a", 5000),
		"http://h/robots.txt", "http://h/%72obots.txt", "http://h/index.html", "http://h/a/",
		"http://h/*$", "http://h/%2A%24", "//h?a=:/?@",
	}
}

// HostileValues are rule values that seed the escaping target.
func HostileValues() []string {
	return []string{
		"", "%", "%a", "%aa", "%AA", "%aA", "%zz", "%%61", "%\xC3\xA9", "/Sanjos\u00e9",
		"/\u30c4", "\xFF", "\x80\x7F", "/a%2f%2F", "*$", "/%E3%83%84", "/%e3%83%84",
		"/a$b$", "/%7E%7e~", "/?a=%3a/@?", "/%2A%2a*", "/%24$", strings.Repeat("%", 100),
		strings.Repeat("\xC3", 50), "/a%0", "/a%", "\x00", "/\t ",
	}
}
