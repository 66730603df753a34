package robots_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// TestSemFileParse parses a file that uses every part of the format.
func TestSemFileParse(t *testing.T) {
	const file = "# a comment line\n" +
		"let site \"https://example.com\" # for the whole file\n" +
		"\n" +
		"test TestGoogleX \"Google reference parser\"\r\n" +
		"let body\n" +
		"\t\"User-agent: *\\r\\n\" # 1\n" +
		"\t# a comment does not end the let\n" +
		"\t\"Disallow: /a\\x00b\" + \"\\n\" # 2\n" +
		"  `Allow: /\\xFF`\n" +
		"let long \"ab\"*3+`c`\n" +
		"check \"plain\" body \"FooBot\" site+\"/a\" both disallow 2\n" +
		"check \"modes\" \"\" \"\" \"/\" google none rfc implicit\n" +
		"source \"2.2.2\"\n" +
		"check \"plain\" long \"Foo Bar\" `/x#y` rfc allow 3\n" +
		"\n" +
		"test TestRFCY \"RFC 9309\"\n" +
		"check \"bytes\" \"\\xEF\\xBB\\xBF\" \"\\xFF\" site google allow 1 rfc disallow 12\n"
	sections, err := parseSemFile("x.txt", []byte(file))
	require.NoError(t, err)
	site := semLet{value: "https://example.com", line: 2}
	body := "User-agent: *\r\nDisallow: /a\x00b\n" + `Allow: /\xFF`
	want := []*semSection{{
		test: "TestGoogleX", source: "Google reference parser", pos: "x.txt:4",
		lets: map[string]semLet{
			"site": site,
			"body": {value: body, line: 5},
			"long": {value: "abababc", line: 10},
		},
		checks: []semCheck{
			{pos: "x.txt:11", name: "plain", body: body, agent: "FooBot", url: "https://example.com/a",
				want: map[robots.Mode]verdict{robots.Google: disallowedBy(2), robots.RFC: disallowedBy(2)}},
			{pos: "x.txt:12", name: "modes", url: "/",
				want: map[robots.Mode]verdict{robots.Google: noRule, robots.RFC: implicitlyAllowed}},
			{pos: "x.txt:14", source: "2.2.2", name: "plain", body: "abababc", agent: "Foo Bar", url: "/x#y",
				want: map[robots.Mode]verdict{robots.RFC: allowedBy(3)}},
		},
	}, {
		test: "TestRFCY", source: "RFC 9309", pos: "x.txt:16",
		lets: map[string]semLet{"site": site},
		checks: []semCheck{
			{pos: "x.txt:17", name: "bytes", body: "\xEF\xBB\xBF", agent: "\xFF", url: "https://example.com",
				want: map[robots.Mode]verdict{robots.Google: allowedBy(1), robots.RFC: disallowedBy(12)}},
		},
	}}
	assert.Equal(t, want, sections)
	assert.Equal(t, "google/plain", sections[0].checks[0].subtest(robots.Google))
	assert.Equal(t, "rfc/2.2.2/plain", sections[0].checks[2].subtest(robots.RFC))
}

// TestSemFileParseErrors feeds the parser malformed files: each fails with
// the file and line of the fault and says what is wrong.
func TestSemFileParseErrors(t *testing.T) {
	const test = "test TestA \"source\"\n"
	const check = "check \"a\" \"\" \"\" \"/\" "
	for _, c := range []struct{ name, file, want string }{
		{"check before test", check + "both none\n", "x.txt:1: check before the first test line"},
		{"source before test", "source \"2.2\"\n", "x.txt:1: source before the first test line"},
		{"unknown directive", test + "tset TestB \"s\"\n", `x.txt:2: unknown directive "tset"`},
		{"line starting with a string", test + "\"a\"\n", "x.txt:2: a line starts with test, source, let or check"},
		{"test name", "test Foo \"s\"\n", "x.txt:1: test wants the name of a Go test function"},
		{"test without source", "test TestA\n", "x.txt:1: test TestA: 1 values wanted, 0 given"},
		{"test with empty source", "test TestA \"\"\n", "x.txt:1: test TestA: empty source"},
		{"test twice", test + test, "x.txt:2: section TestA is also at x.txt:1"},
		{"empty source line", test + "source \"\"\n", "x.txt:2: empty source"},
		{"source with two values", test + "source \"a\" \"b\"\n", `x.txt:2: source: unexpected string "b" after the value`},
		{"let without value", "let x\n" + test, "x.txt:1: let x has no value"},
		{"let without value at the end", test + "let x\n", "x.txt:2: let x has no value"},
		{"let defined twice", "let x \"a\"\n" + test + "let x \"b\"\n", "x.txt:3: x is already defined at line 1"},
		{"let of itself", test + "let x x+\"a\"\n", "x.txt:2: let x: let x refers to itself"},
		{"let name", test + "let 1x \"a\"\n", "x.txt:2: let wants a name"},
		{"let name with a dash", test + "let a-b \"a\"\n", "x.txt:2: let wants a name"},
		{"continuation without let", test + "\t\"a\"\n", "x.txt:2: an indented line continues a let, and no let is open"},
		{"continuation after a check", test + "let x \"a\"\n" + check + "both none\n\t\"b\"\n", "x.txt:4: an indented line continues a let"},
		{"two values on a continuation", test + "let x\n\t\"a\" \"b\"\n", `x.txt:3: let x: unexpected string "b" after the value`},
		{"undefined name", test + "check \"a\" body \"\" \"/\" both none\n", `x.txt:2: check NAME BODY AGENT URL VERDICT...: undefined name "body"`},
		{"unquoted agent", test + "check \"a\" \"\" FooBot \"/\" both none\n", `undefined name "FooBot" (text is quoted)`},
		{"missing URL", test + "check \"a\" \"\" \"\" both none\n", `x.txt:2: check NAME BODY AGENT URL VERDICT...: undefined name "both"`},
		{"too few values", test + "check \"a\" \"\" \"\"\n", "x.txt:2: check NAME BODY AGENT URL VERDICT...: 4 values wanted, 3 given"},
		{"empty check name", test + "check \"\" \"\" \"\" \"/\" both none\n", "x.txt:2: check: empty name"},
		{"no verdict", test + check + "\n", `x.txt:2: check "a": no verdict`},
		{"unknown mode", test + check + "sometimes none\n", `x.txt:2: check "a": mode "sometimes": want google, rfc or both`},
		{"string as mode", test + check + "\"both\" none\n", `check "a": mode string "both"`},
		{"mode without decision", test + check + "both\n", `x.txt:2: check "a": both: want allow LINE, disallow LINE, none or implicit`},
		{"unknown decision", test + check + "both maybe\n", `x.txt:2: check "a": both: decision "maybe"`},
		{"allow without line", test + check + "google allow\n", `x.txt:2: check "a": google: allow wants a line number`},
		{"line zero", test + check + "rfc disallow 0\n", `x.txt:2: check "a": rfc: disallow: line "0" is not a number from 1`},
		{"line not a number", test + check + "rfc disallow two\n", `line "two" is not a number from 1`},
		{"mode twice", test + check + "both none rfc none\n", `x.txt:2: check "a": a second verdict for rfc mode`},
		{"same name twice", test + check + "both none\n" + check + "rfc none\n", `x.txt:3: check "a": rfc mode: the name is taken at line 2`},
		{"unterminated string", test + "let x \"abc\n", `x.txt:2: unterminated string "abc`},
		{"string ending in a backslash", test + "let x \"abc\\\"\n", `x.txt:2: unterminated string`},
		{"unterminated raw string", test + "let x `abc\n", "x.txt:2: unterminated string `abc"},
		{"bad escape", test + "let x \"\\q\"\n", `x.txt:2: string "\q": invalid syntax`},
		{"repeat without count", test + "let x \"a\"*\n", `x.txt:2: repeat count "" after "a"`},
		{"repeat too large", test + "let x \"a\"*99999999\n", `x.txt:2: repeat count "99999999" after "a": want a number up to 16777216`},
		{"strings not apart", test + "let x \"a\"\"b\"\n", `x.txt:2: "a" is not followed by a space, '+' or '#'`},
		{"single quotes", test + "let x 'a'\n", `x.txt:2: unexpected '\''`},
		{"plus at the end", test + "let x \"a\"+\n", "x.txt:2: let x: '+' at the end of the line"},
		{"plus first", test + "let x + \"a\"\n", "x.txt:2: let x: '+' without a term before it"},
		{"raw invalid UTF-8", test + "let x \"\xFF\"\n", `x.txt:2: invalid UTF-8: write such bytes as escapes, "\xFF"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseSemFile("x.txt", []byte(c.file))
			if assert.Error(t, err) {
				assert.Contains(t, err.Error(), c.want)
			}
		})
	}
}

// TestSemFileSectionsHaveTests checks that every section of the semantics
// files is run by the test function it names, one that calls semRun or
// semSectionOf, and that every such function has a section: a section
// nobody runs would pass unseen.
func TestSemFileSectionsHaveTests(t *testing.T) {
	sections, err := semLoad()
	require.NoError(t, err)
	files, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	var runners []string
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, decl := range file.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && strings.HasPrefix(fn.Name.Name, "Test") && semCalls(fn.Body) {
				runners = append(runners, fn.Name.Name)
			}
		}
	}
	var names []string
	for name := range sections {
		names = append(names, name)
	}
	assert.ElementsMatch(t, names, runners)
}

// semCalls reports whether body calls semRun or semSectionOf.
func semCalls(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && (id.Name == "semRun" || id.Name == "semSectionOf") {
				found = true
			}
		}
		return !found
	})
	return found
}
