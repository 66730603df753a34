package robots_test

// Semantics files: the table-driven checks of the TestRFC… and TestGoogle…
// tests live in testdata/semantics/*.txt, read by one parser and run by one
// loop, the way Go's regexp package reads testdata/*.dat. A check is a
// robots.txt body, the crawler's agent, a URL and the expected verdict in
// each mode (Google, RFC or both).
//
// The format is line-oriented. Tokens are separated by spaces or tabs, and
// '#' outside a string starts a comment that runs to the end of the line.
// A value is one or more terms joined by '+'. A term is a Go string literal
// ("…" with Go's escapes, so that any byte can be written: "\r", "\x00",
// "\xEF\xBB\xBF", "\xFF"; or `…`), optionally repeated as "a"*16652, or the
// name of a value defined by let. Bare words in a value are always names,
// never text, so agents and URLs are quoted, the empty agent as "".
//
//	test NAME SOURCE
//		Starts the section that the Go test function NAME runs: a
//		function of one line, semRun(t), or one that adds checks
//		written in Go. SOURCE says where the behaviour is specified
//		("RFC 9309 section 2.2", "Google reference parser"). TestRFC…
//		sections pin RFC 9309, TestGoogle… sections Google's behaviour.
//	source SOURCE
//		Names the source, such as an RFC 9309 section or figure, of the
//		checks below it up to the next source or test line. Their
//		subtest names carry it, so that checks of the same name under
//		different sources stay apart.
//	let NAME [VALUE]
//		Defines NAME for the rest of the section; before the first test
//		line, for the whole file. A name is never redefined. Lines that
//		start with white space continue the value of the let above them,
//		one value each, appended: a body can be written one robots.txt
//		line per line, its line number in a comment.
//	check NAME BODY AGENT URL VERDICT...
//		Parses BODY in each mode that a VERDICT names, resolves AGENT
//		with Robots.Agent and checks the decision for URL with
//		checkVerdict. A VERDICT is a mode, google, rfc or both, followed
//		by the decision: "allow LINE" or "disallow LINE" (the deciding
//		rule's line), "none" (no rule matches: allowed, Rule == nil) or
//		"implicit" (allowed without consulting the rules). A mode has at
//		most one verdict. The check runs as the subtest MODE/NAME, or
//		MODE/SOURCE/NAME under a source line, of its test; the name is
//		unique there.
//
// For example:
//
//	test TestRFCLineEndings "RFC 9309 section 2.2"
//	let ua "User-agent: *\n"
//	let cr
//		"User-agent: *\r"  # 1
//		"Disallow: /a\r"   # 2
//	check "CR" cr "FooBot" "/a" both disallow 2
//	check "typo" ua+"Disalow: /a\n" "FooBot" "/a" google disallow 2 rfc none
//
// The file itself is UTF-8 text; other bytes are written as escapes. A
// malformed file fails every test that reads it, with file:line.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// semDir holds the semantics files.
const semDir = "testdata/semantics"

// semMaxRepeat bounds a repeat count, "x"*N, so that a typo cannot ask for
// gigabytes.
const semMaxRepeat = 1 << 24

// semModes are the modes a check can name, in the order its subtests run.
var semModes = []robots.Mode{robots.Google, robots.RFC}

// semSection is the checks of one test function.
type semSection struct {
	test   string // the Go test function that runs it
	source string // where the behaviour is specified
	pos    string // file:line of its test line
	lets   map[string]semLet
	checks []semCheck
}

// semLet is a named value and the line that defines it.
type semLet struct {
	value string
	line  int
}

// semCheck is one check: a body, agent and URL, and the verdict expected in
// each mode it runs in.
type semCheck struct {
	pos    string // file:line, for messages
	source string // from a source line; "" when none applies
	name   string
	body   string
	agent  string
	url    string
	want   map[robots.Mode]verdict
}

// subtest is the name of the check's subtest in mode m.
func (c semCheck) subtest(m robots.Mode) string {
	if c.source == "" {
		return m.String() + "/" + c.name
	}
	return m.String() + "/" + c.source + "/" + c.name
}

// value returns the value a let of the section defines.
func (s *semSection) value(t *testing.T, name string) string {
	t.Helper()
	l, ok := s.lets[name]
	require.True(t, ok, "%s: section %s defines no %q", s.pos, s.test, name)
	return l.value
}

// semLoad parses every semantics file once.
var semLoad = sync.OnceValues(func() (map[string]*semSection, error) {
	files, err := filepath.Glob(filepath.Join(semDir, "*.txt"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no semantics files in %s: %v", semDir, err)
	}
	out := map[string]*semSection{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		sections, err := parseSemFile(f, data)
		if err != nil {
			return nil, err
		}
		for _, s := range sections {
			if other, dup := out[s.test]; dup {
				return nil, fmt.Errorf("%s: section %s is also at %s", s.pos, s.test, other.pos)
			}
			out[s.test] = s
		}
	}
	return out, nil
})

// semSectionOf returns the section of the running test, named after it.
func semSectionOf(t *testing.T) *semSection {
	t.Helper()
	sections, err := semLoad()
	require.NoError(t, err)
	s, ok := sections[t.Name()]
	require.True(t, ok, "no section %q in %s/*.txt", t.Name(), semDir)
	return s
}

// semRun runs the checks of the running test's section and returns the
// section, for the values the test's own Go code uses.
func semRun(t *testing.T) *semSection {
	t.Helper()
	s := semSectionOf(t)
	semRunChecks(t, s.checks)
	return s
}

// semRunChecks runs each check in each mode it names, as a subtest.
func semRunChecks(t *testing.T, checks []semCheck) {
	t.Helper()
	for _, c := range checks {
		for _, m := range semModes {
			want, ok := c.want[m]
			if !ok {
				continue
			}
			t.Run(c.subtest(m), func(t *testing.T) {
				a := robots.Parse([]byte(c.body), robots.WithMode(m)).Agent(c.agent)
				if !checkVerdict(t, a, c.url, want) || !checkReference(t, []byte(c.body), m, c.agent, c.url, want) {
					t.Logf("%s: %s mode, agent %s, URL %s, robots.txt %s",
						c.pos, m, abbrev(c.agent, 80), abbrev(c.url, 200), abbrev(c.body, 400))
				}
			})
		}
	}
}

// semParser reads one semantics file, a line at a time.
type semParser struct {
	file     string
	line     int
	globals  map[string]semLet // lets before the first test line
	sec      *semSection       // the current section, nil before the first
	source   string            // the current source line's value
	let      string            // the let that continuation lines extend
	letOpen  bool              // let is still without a value
	sections []*semSection
	seen     map[string]int // subtest names of the section → line
}

// parseSemFile parses a semantics file; file names it in errors.
func parseSemFile(file string, data []byte) ([]*semSection, error) {
	p := &semParser{file: file, globals: map[string]semLet{}}
	for i, line := range strings.Split(string(data), "\n") {
		p.line = i + 1
		if err := p.parseLine(strings.TrimSuffix(line, "\r")); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, p.line, err)
		}
	}
	if err := p.endLet(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", file, p.line, err)
	}
	return p.sections, nil
}

// semToken is a token of a line: a word, a string (its value) or '+'.
type semToken struct {
	kind byte // 'w', 's' or '+'
	text string
}

func (tok semToken) String() string {
	switch tok.kind {
	case 's':
		return "string " + abbrev(tok.text, 40)
	case '+':
		return "'+'"
	}
	return strconv.Quote(tok.text)
}

func (p *semParser) parseLine(line string) error {
	if !utf8.ValidString(line) {
		return errors.New(`invalid UTF-8: write such bytes as escapes, "\xFF"`)
	}
	toks, err := semTokens(line)
	if err != nil || len(toks) == 0 {
		return err
	}
	if line[0] == ' ' || line[0] == '\t' {
		return p.continueLet(toks)
	}
	if err := p.endLet(); err != nil {
		return err
	}
	if toks[0].kind != 'w' {
		return fmt.Errorf("a line starts with test, source, let or check, not %v", toks[0])
	}
	switch kw, args := toks[0].text, toks[1:]; kw {
	case "test":
		return p.parseTest(args)
	case "source":
		return p.parseSource(args)
	case "let":
		return p.parseLet(args)
	case "check":
		return p.parseCheck(args)
	default:
		return fmt.Errorf("unknown directive %q: want test, source, let or check", kw)
	}
}

func (p *semParser) parseTest(args []semToken) error {
	if len(args) == 0 || args[0].kind != 'w' || !strings.HasPrefix(args[0].text, "Test") || !semIsName(args[0].text) {
		return errors.New("test wants the name of a Go test function, TestXxx, then its source")
	}
	name := args[0].text
	for _, s := range p.sections {
		if s.test == name {
			return fmt.Errorf("section %s is also at %s", name, s.pos)
		}
	}
	source, err := p.values(args[1:], 1)
	if err != nil {
		return fmt.Errorf("test %s: %w", name, err)
	}
	if source[0] == "" {
		return fmt.Errorf("test %s: empty source", name)
	}
	p.sec = &semSection{test: name, source: source[0], pos: p.pos(), lets: map[string]semLet{}}
	for k, v := range p.globals {
		p.sec.lets[k] = v
	}
	p.sections = append(p.sections, p.sec)
	p.source = ""
	p.seen = map[string]int{}
	return nil
}

func (p *semParser) parseSource(args []semToken) error {
	if p.sec == nil {
		return errors.New("source before the first test line")
	}
	v, err := p.values(args, 1)
	if err != nil {
		return fmt.Errorf("source: %w", err)
	}
	if v[0] == "" {
		return errors.New("empty source")
	}
	p.source = v[0]
	return nil
}

func (p *semParser) parseLet(args []semToken) error {
	if len(args) == 0 || args[0].kind != 'w' || !semIsName(args[0].text) {
		return errors.New("let wants a name: a letter or '_', then letters, digits or '_'")
	}
	name := args[0].text
	lets := p.lets()
	if l, dup := lets[name]; dup {
		return fmt.Errorf("%s is already defined at line %d", name, l.line)
	}
	lets[name] = semLet{line: p.line}
	p.let, p.letOpen = name, true
	if len(args) == 1 {
		return nil // the value is on the lines that follow
	}
	return p.continueLet(args[1:])
}

// continueLet appends a line's value to the open let.
func (p *semParser) continueLet(toks []semToken) error {
	if p.let == "" {
		return errors.New("an indented line continues a let, and no let is open")
	}
	v, err := p.values(toks, 1)
	if err != nil {
		return fmt.Errorf("let %s: %w", p.let, err)
	}
	lets := p.lets()
	l := lets[p.let]
	l.value += v[0]
	lets[p.let] = l
	p.letOpen = false
	return nil
}

// endLet closes the open let, if any: it must have a value. An error
// moves the parser to the let's line, where it is reported.
func (p *semParser) endLet() error {
	name, open := p.let, p.letOpen
	p.let, p.letOpen = "", false
	if open {
		p.line = p.lets()[name].line
		return fmt.Errorf("let %s has no value", name)
	}
	return nil
}

// lets is the scope that let lines define names in.
func (p *semParser) lets() map[string]semLet {
	if p.sec == nil {
		return p.globals
	}
	return p.sec.lets
}

func (p *semParser) parseCheck(args []semToken) error {
	if p.sec == nil {
		return errors.New("check before the first test line")
	}
	const fields = "check NAME BODY AGENT URL VERDICT..."
	v, rest, err := p.valuesThen(args, 4)
	if err != nil {
		return fmt.Errorf("%s: %w", fields, err)
	}
	c := semCheck{pos: p.pos(), source: p.source, name: v[0], body: v[1], agent: v[2], url: v[3]}
	if c.name == "" {
		return errors.New("check: empty name")
	}
	if c.want, err = semVerdicts(rest); err != nil {
		return fmt.Errorf("check %q: %w", c.name, err)
	}
	for _, m := range semModes {
		if _, ok := c.want[m]; !ok {
			continue
		}
		if line, dup := p.seen[c.subtest(m)]; dup {
			return fmt.Errorf("check %q: %s mode: the name is taken at line %d", c.name, m, line)
		}
		p.seen[c.subtest(m)] = p.line
	}
	p.sec.checks = append(p.sec.checks, c)
	return nil
}

// semVerdicts reads "MODE DECISION" pairs.
func semVerdicts(toks []semToken) (map[robots.Mode]verdict, error) {
	if len(toks) == 0 {
		return nil, errors.New("no verdict: want google, rfc or both, then allow LINE, disallow LINE, none or implicit")
	}
	want := map[robots.Mode]verdict{}
	for len(toks) > 0 {
		mode := toks[0]
		var modes []robots.Mode
		switch mode.text {
		case "google":
			modes = []robots.Mode{robots.Google}
		case "rfc":
			modes = []robots.Mode{robots.RFC}
		case "both":
			modes = semModes
		}
		if mode.kind != 'w' || modes == nil {
			return nil, fmt.Errorf("mode %v: want google, rfc or both", mode)
		}
		v, n, err := semDecision(toks[1:])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", mode.text, err)
		}
		for _, m := range modes {
			if _, dup := want[m]; dup {
				return nil, fmt.Errorf("a second verdict for %s mode", m)
			}
			want[m] = v
		}
		toks = toks[1+n:]
	}
	return want, nil
}

// semDecision reads a decision and returns how many tokens it took.
func semDecision(toks []semToken) (verdict, int, error) {
	const want = "want allow LINE, disallow LINE, none or implicit"
	if len(toks) == 0 || toks[0].kind != 'w' {
		return verdict{}, 0, errors.New(want)
	}
	switch toks[0].text {
	case "none":
		return noRule, 1, nil
	case "implicit":
		return implicitlyAllowed, 1, nil
	case "allow", "disallow":
		if len(toks) < 2 || toks[1].kind != 'w' {
			return verdict{}, 0, fmt.Errorf("%s wants a line number", toks[0].text)
		}
		line, err := strconv.Atoi(toks[1].text)
		if err != nil || line < 1 {
			return verdict{}, 0, fmt.Errorf("%s: line %q is not a number from 1", toks[0].text, toks[1].text)
		}
		return verdict{allowed: toks[0].text == "allow", line: line}, 2, nil
	}
	return verdict{}, 0, fmt.Errorf("decision %q: %s", toks[0].text, want)
}

// values reads exactly n values, and nothing after them.
func (p *semParser) values(toks []semToken, n int) ([]string, error) {
	v, rest, err := p.valuesThen(toks, n)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("unexpected %v after the value", rest[0])
	}
	return v, err
}

// valuesThen reads n values and returns the tokens after them.
func (p *semParser) valuesThen(toks []semToken, n int) ([]string, []semToken, error) {
	var out []string
	for len(out) < n {
		if len(toks) == 0 {
			return nil, nil, fmt.Errorf("%d values wanted, %d given", n, len(out))
		}
		var b strings.Builder
		for {
			term, err := p.term(toks[0])
			if err != nil {
				return nil, nil, err
			}
			b.WriteString(term)
			toks = toks[1:]
			if len(toks) == 0 || toks[0].kind != '+' {
				break
			}
			toks = toks[1:]
			if len(toks) == 0 {
				return nil, nil, errors.New("'+' at the end of the line")
			}
		}
		out = append(out, b.String())
	}
	return out, toks, nil
}

// term is the text of a string token or of the let a word names.
func (p *semParser) term(tok semToken) (string, error) {
	switch tok.kind {
	case 's':
		return tok.text, nil
	case '+':
		return "", errors.New("'+' without a term before it")
	}
	l, ok := p.lets()[tok.text]
	if !ok {
		return "", fmt.Errorf("undefined name %q (text is quoted)", tok.text)
	}
	if tok.text == p.let {
		return "", fmt.Errorf("let %s refers to itself", tok.text)
	}
	return l.value, nil
}

func (p *semParser) pos() string { return fmt.Sprintf("%s:%d", p.file, p.line) }

// semTokens splits a line into tokens, up to a comment.
func semTokens(line string) ([]semToken, error) {
	var toks []semToken
	for i := 0; i < len(line); {
		c := line[i]
		start := i
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '#':
			return toks, nil
		case c == '+':
			toks = append(toks, semToken{kind: '+'})
			i++
			continue
		case c == '"' || c == '`':
			s, n, err := semString(line[i:])
			if err != nil {
				return nil, err
			}
			toks = append(toks, semToken{kind: 's', text: s})
			i += n
		case semIsWordByte(c):
			for i < len(line) && semIsWordByte(line[i]) {
				i++
			}
			toks = append(toks, semToken{kind: 'w', text: line[start:i]})
		default:
			return nil, fmt.Errorf("unexpected %q: text is quoted", c)
		}
		if i < len(line) && !strings.ContainsRune(" \t+#", rune(line[i])) {
			return nil, fmt.Errorf("%s is not followed by a space, '+' or '#'", line[start:i])
		}
	}
	return toks, nil
}

// semString reads a Go string literal at the start of s, and its repeat
// count if "*N" follows, and returns its value and length in s.
func semString(s string) (string, int, error) {
	n := -1
	if s[0] == '`' {
		if j := strings.IndexByte(s[1:], '`'); j >= 0 {
			n = j + 2
		}
	} else {
		for i := 1; i < len(s); i++ {
			if s[i] == '\\' {
				i++
			} else if s[i] == '"' {
				n = i + 1
				break
			}
		}
	}
	if n < 0 {
		return "", 0, fmt.Errorf("unterminated string %s", s)
	}
	v, err := strconv.Unquote(s[:n])
	if err != nil {
		return "", 0, fmt.Errorf("string %s: %v", s[:n], err)
	}
	if n == len(s) || s[n] != '*' {
		return v, n, nil
	}
	j := n + 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	count, err := strconv.Atoi(s[n+1 : j])
	if err != nil || count > semMaxRepeat {
		return "", 0, fmt.Errorf("repeat count %q after %s: want a number up to %d", s[n+1:j], s[:n], semMaxRepeat)
	}
	return strings.Repeat(v, count), j, nil
}

// semIsWordByte reports whether c may appear in a word: a name, a
// directive, a keyword or a number.
func semIsWordByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// semIsName reports whether w is a name: a letter or '_', then letters,
// digits or '_'.
func semIsName(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return w != ""
}
