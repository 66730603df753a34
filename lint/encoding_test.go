package lint

import (
	"strings"
	"testing"

	"github.com/fastrobots/robots/compile"
)

func TestGoogleBytesFindings(t *testing.T) {
	long := strings.Repeat("a", compile.MaxLineBytes)
	utf16 := "U\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00 \x00/\x00"
	runCases(t, []lintCase{
		{"content past 500 KiB", "User-agent: *\n" + strings.Repeat("#\n", compile.DefaultMaxBytes/2) + "Disallow: /",
			[]string{"255995:1 truncated"}},
		{"only white space past 500 KiB", "User-agent: *\n" + strings.Repeat("\n", compile.DefaultMaxBytes), nil},
		{"directive cut at the line limit", "User-agent: *\nDisallow: /" + long, []string{"2:16664 line-too-long"}},
		{"comment cut at the line limit", "User-agent: *\n# " + long, nil},
		{"comment starts past the limit", "User-agent: *\nDisallow: /" + long[:compile.MaxLineBytes-11] + " # note", nil},
		{"NUL hides a rule", "User-agent: *\nDisallow: /a\x00/b\n", []string{"2:13 nul-byte"}},
		{"trailing NULs hide nothing", "User-agent: *\nDisallow: /a\x00\x00 \n", nil},
		{"byte order mark at the start", utf8BOM + "User-agent: *\nDisallow: /\n", nil},
		{"second byte order mark", utf8BOM + utf8BOM + "User-agent: *\nDisallow: /\n", // line 1 is lost
			[]string{"1:1 stray-bom", "2:1 rule-outside-group"}},
		{"byte order mark of a concatenated file", "User-agent: *\nDisallow: /a\n" + utf8BOM + "User-agent: b\nDisallow: /b\n",
			[]string{"3:1 stray-bom"}},
		{"invalid UTF-8 in a rule", "User-agent: *\nDisallow: /caf\xE9\n", []string{"2:15 invalid-utf8"}},
		{"invalid UTF-8 in a comment", "User-agent: *\nDisallow: /cafe # caf\xE9\n", nil},
		{"a character split by the line limit", "User-agent: *\nDisallow: /" + long[:compile.MaxLineBytes-12] + "\xC3\xA9\n",
			[]string{"2:16663 invalid-utf8", "2:16664 line-too-long"}},
		{"a character that ends at the line limit", "User-agent: *\nDisallow: /" + long[:compile.MaxLineBytes-13] + "\xC3\xA9\n", nil},
		{"a NUL before markup", "User-agent: *\nDisallow: /a\n \x00<html>\n", []string{"3:2 nul-byte"}},
		{"a NUL inside a tag", "User-agent: *\nDisallow: /a\n<htm\x00l>\n", []string{"3:1 unparsed-line", "3:5 nul-byte"}},
		{"markup read as a key", "User-agent: *\n  <head>: x\n", []string{"2:3 html"}},
		{"UTF-16", utf16, []string{"1:1 utf16"}},
		{"UTF-16 byte order mark", "\xFF\xFEUser-agent: *\nDisallow: /\n", []string{"1:1 utf16", "2:1 rule-outside-group"}},
		{"HTML page", "\n  <!DOCTYPE html>\n<html><body>User-agent: *</body></html>\n", []string{"2:3 html"}},
		{"HTML after the rules", "User-agent: *\nDisallow: /a\n<html>\n<head><title>x: y</title></head>\n<!-- note: x -->\n",
			[]string{"3:1 html"}},
		{"HTML comment", "User-agent: *\nDisallow: /a\n<!-- cached: now -->\n", []string{"3:1 html"}},
	})
}
