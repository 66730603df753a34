package fuzzgen

import (
	"encoding/binary"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/runtime"
)

// The checks below are the fuzz targets' invariants. Each returns nil or
// the first invariant the input breaks; a panic in the code under test is
// left to the caller (the fuzzing engine reports it with the input).

var modes = []compile.Mode{compile.Google, compile.RFC}

// CheckParse parses data in both modes and checks the result against the
// oracles: the directive lines and the number of lines against
// ReferenceScan; groups, agents, rules, sitemaps and other lines against an
// independent grouping of those directives; every line number within
// 1..Lines; every group with at least one user-agent line; the size limit;
// and that Format writes a file that reads back to the same structure.
func CheckParse(data []byte) error {
	for _, m := range modes {
		if err := checkParse(data, m); err != nil {
			return fmt.Errorf("%v mode: %w", m, err)
		}
	}
	return nil
}

func checkParse(data []byte, mode compile.Mode) error {
	f := compile.Parse(data, compile.Options{Mode: mode})
	body := data
	if len(body) > compile.DefaultMaxBytes {
		body = body[:compile.DefaultMaxBytes]
	}
	if f.Truncated != (len(data) > compile.DefaultMaxBytes) {
		return fmt.Errorf("file.Truncated = %v for %d bytes", f.Truncated, len(data))
	}
	if f.Mode != mode {
		return fmt.Errorf("file.Mode = %v", f.Mode)
	}

	want, lines := ReferenceScan(body, mode == compile.RFC)
	var got []Token
	n := compile.Scan(string(body), mode, func(t compile.Token) { got = append(got, TokenOf(t)) })
	if n != lines || f.Lines != lines {
		return fmt.Errorf("lines: Scan counts %d, Parse %d, the reference %d", n, f.Lines, lines)
	}
	if err := sameTokens(got, want); err != nil {
		return fmt.Errorf("tokens of Scan: %w", err)
	}

	if err := sameFile(f, want, mode == compile.RFC); err != nil {
		return err
	}
	if err := lineInvariants(f); err != nil {
		return err
	}

	out, ok := Format(f)
	if !ok {
		return nil
	}
	back := compile.Parse(out, compile.Options{Mode: mode, MaxBytes: -1})
	if err := sameStructure(back, f); err != nil {
		return fmt.Errorf("formatted and read back: %w\n%s", err, out)
	}
	return nil
}

// TokenOf converts a compile token to a Token.
func TokenOf(t compile.Token) Token {
	return Token{Line: t.Line, Field: FieldOf(t.Kind), Key: t.Key, Value: t.Value}
}

// FieldOf converts a compile kind to a Field.
func FieldOf(k compile.Kind) Field {
	switch k {
	case compile.UserAgent:
		return UserAgent
	case compile.Allow:
		return Allow
	case compile.Disallow:
		return Disallow
	case compile.Sitemap:
		return Sitemap
	}
	return Unknown
}

func sameTokens(got, want []Token) error {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Errorf("directive %d is %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d directives, want %d", len(got), len(want))
	}
	return nil
}

// SameTokens reports the first difference between two directive lists.
func SameTokens(got, want []Token) error { return sameTokens(got, want) }

// sameFile checks the parsed structure against a grouping of the
// reference's directives: a user-agent line opens a group when the last
// directive that was a rule came after the group's start (or there is no
// group); rules join the last group, if any; sitemap and other lines stand
// apart and change nothing.
func sameFile(f *compile.File, toks []Token, rfc bool) error {
	var groups []compile.Group
	var sitemaps, others []compile.Directive
	closed := false
	for _, t := range toks {
		switch t.Field {
		case UserAgent:
			if len(groups) == 0 || closed {
				groups = append(groups, compile.Group{})
				closed = false
			}
			a := compile.AgentLine{Line: t.Line, Value: t.Value, Global: globalAgent(t.Value, rfc)}
			if !a.Global {
				a.Token = agentToken(t.Value)
			}
			g := &groups[len(groups)-1]
			g.Agents = append(g.Agents, a)
		case Allow, Disallow:
			closed = true
			if len(groups) > 0 {
				g := &groups[len(groups)-1]
				g.Rules = append(g.Rules, compile.Rule{Line: t.Line, Allow: t.Field == Allow, Value: t.Value, Pattern: EscapeOracle(t.Value)})
			}
		case Sitemap:
			sitemaps = append(sitemaps, compile.Directive{Line: t.Line, Key: t.Key, Value: t.Value})
		default:
			others = append(others, compile.Directive{Line: t.Line, Key: t.Key, Value: t.Value})
		}
	}
	if len(f.Groups()) != len(groups) {
		return fmt.Errorf("%d groups, want %d", len(f.Groups()), len(groups))
	}
	for i, g := range groups {
		if err := sameGroup(f.Groups()[i], g, true); err != nil {
			return fmt.Errorf("group %d: %w", i, err)
		}
	}
	if err := sameDirectives("sitemap", f.Sitemaps(), sitemaps, true); err != nil {
		return err
	}
	return sameDirectives("other", f.Others(), others, true)
}

func sameGroup(got, want compile.Group, lines bool) error {
	if len(got.Agents) != len(want.Agents) || len(got.Rules) != len(want.Rules) {
		return fmt.Errorf("%d agents and %d rules, want %d and %d", len(got.Agents), len(got.Rules), len(want.Agents), len(want.Rules))
	}
	for i, a := range want.Agents {
		g := got.Agents[i]
		if !lines {
			g.Line, a.Line = 0, 0
		}
		if g != a {
			return fmt.Errorf("agent %d is %+v, want %+v", i, g, a)
		}
	}
	for i, r := range want.Rules {
		g := got.Rules[i]
		if !lines {
			g.Line, r.Line = 0, 0
		}
		if g != r {
			return fmt.Errorf("rule %d is %+v, want %+v", i, g, r)
		}
	}
	return nil
}

func sameDirectives(what string, got, want []compile.Directive, lines bool) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d %s lines, want %d", len(got), what, len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if !lines {
			g.Line, w.Line = 0, 0
			if what == "sitemap" {
				g.Key, w.Key = "", "" // written back as "sitemap"
			}
		}
		if g != w {
			return fmt.Errorf("%s line %d is %+v, want %+v", what, i, g, w)
		}
	}
	return nil
}

// sameStructure compares two parsed files, line numbers aside.
func sameStructure(got, want *compile.File) error {
	if len(got.Groups()) != len(want.Groups()) {
		return fmt.Errorf("%d groups, want %d", len(got.Groups()), len(want.Groups()))
	}
	for i := range want.Groups() {
		if err := sameGroup(got.Groups()[i], want.Groups()[i], false); err != nil {
			return fmt.Errorf("group %d: %w", i, err)
		}
	}
	if err := sameDirectives("sitemap", got.Sitemaps(), want.Sitemaps(), false); err != nil {
		return err
	}
	return sameDirectives("other", got.Others(), want.Others(), false)
}

// SameStructure reports the first difference between the groups, rules,
// sitemaps and other lines of two parsed files, line numbers aside.
func SameStructure(got, want *compile.File) error { return sameStructure(got, want) }

// lineInvariants checks that every directive has a line number within
// 1..Lines, that no two directives share a line, and that every group has
// a user-agent line.
func lineInvariants(f *compile.File) error {
	seen := map[int]bool{}
	check := func(what string, line int) error {
		if line < 1 || line > f.Lines {
			return fmt.Errorf("%s on line %d of %d", what, line, f.Lines)
		}
		if seen[line] {
			return fmt.Errorf("two directives on line %d", line)
		}
		seen[line] = true
		return nil
	}
	for i, g := range f.Groups() {
		if len(g.Agents) == 0 {
			return fmt.Errorf("group %d has no user-agent line", i)
		}
		for _, a := range g.Agents {
			if err := check("user-agent", a.Line); err != nil {
				return err
			}
		}
		for _, r := range g.Rules {
			if err := check("rule", r.Line); err != nil {
				return err
			}
		}
	}
	for _, d := range append(append([]compile.Directive(nil), f.Sitemaps()...), f.Others()...) {
		if err := check(d.Key, d.Line); err != nil {
			return err
		}
	}
	return nil
}

// CheckPath checks runtime.Path against PathOracle, and that its result
// starts with '/', holds no '#', and is a substring of rawURL or '/' and a
// substring; and that URLPath gives a path starting with '/'.
func CheckPath(rawURL string) error {
	got := runtime.Path(rawURL)
	if want := PathOracle(rawURL); got != want {
		return fmt.Errorf("Path(%q) = %q, want %q", rawURL, got, want)
	}
	if !strings.HasPrefix(got, "/") {
		return fmt.Errorf("Path(%q) = %q does not start with '/'", rawURL, got)
	}
	if strings.Contains(got, "#") {
		return fmt.Errorf("Path(%q) = %q holds the fragment", rawURL, got)
	}
	if !strings.Contains(rawURL, got) && !strings.Contains(rawURL, got[1:]) {
		return fmt.Errorf("Path(%q) = %q is not taken from the URL", rawURL, got)
	}
	if u, err := url.Parse(rawURL); err == nil {
		if p := runtime.URLPath(u); !strings.HasPrefix(p, "/") {
			return fmt.Errorf("URLPath(%q) = %q does not start with '/'", rawURL, p)
		}
	}
	return nil
}

// CheckEscape checks compile.EscapePattern against EscapeOracle: ASCII out,
// idempotent, changing only bytes outside ASCII and the case of %xx
// escapes. It checks that the RFC form of a path and NormalizeRFCPattern give
// ASCII, are idempotent, and that the path form holds no raw '*' or '$'.
func CheckEscape(value string) error {
	e := compile.EscapePattern(value)
	if want := EscapeOracle(value); e != want {
		return fmt.Errorf("EscapePattern(%q) = %q, want %q", value, e, want)
	}
	if !isASCII(e) {
		return fmt.Errorf("EscapePattern(%q) = %q is not ASCII", value, e)
	}
	if e2 := compile.EscapePattern(e); e2 != e {
		return fmt.Errorf("EscapePattern is not idempotent on %q: %q then %q", value, e, e2)
	}
	if err := onlyEscapes(value, e); err != nil {
		return fmt.Errorf("EscapePattern(%q) = %q: %w", value, e, err)
	}
	for _, n := range []struct {
		name string
		fn   func(string) string
	}{{"NormalizeRFC path", normalizeRFCPath}, {"NormalizeRFCPattern", compile.NormalizeRFCPattern}} {
		once := n.fn(value)
		if !isASCII(once) {
			return fmt.Errorf("%s(%q) = %q is not ASCII", n.name, value, once)
		}
		if twice := n.fn(once); twice != once {
			return fmt.Errorf("%s is not idempotent on %q: %q then %q", n.name, value, once, twice)
		}
	}
	if p := normalizeRFCPath(value); strings.ContainsAny(p, "*$") {
		return fmt.Errorf("NormalizeRFC path (%q) = %q keeps an operator", value, p)
	}
	return nil
}

// onlyEscapes walks value and its escaped form e together: every byte
// outside ASCII must be %XX of itself, every %xx escape must come out
// upper-cased, every other byte unchanged.
func onlyEscapes(value, e string) error {
	j := 0
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case c >= 0x80:
			if j+3 > len(e) || e[j] != '%' || e[j+1:j+3] != fmt.Sprintf("%02X", c) {
				return fmt.Errorf("byte %d (%#x) is not escaped as %%%02X", i, c, c)
			}
			j += 3
		case c == '%' && i+2 < len(value) && isHexDigit(value[i+1]) && isHexDigit(value[i+2]):
			if j+3 > len(e) || e[j:j+3] != "%"+strings.ToUpper(value[i+1:i+3]) {
				return fmt.Errorf("escape at %d is not upper-cased", i)
			}
			i += 2
			j += 3
		default:
			if j >= len(e) || e[j] != c {
				return fmt.Errorf("byte %d (%q) changed", i, c)
			}
			j++
		}
	}
	if j != len(e) {
		return fmt.Errorf("%d bytes added at the end", len(e)-j)
	}
	return nil
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// oracleBudget bounds the work of the verdict oracle (pattern bytes × path
// bytes); a larger input is checked for its invariants only.
const oracleBudget = 1 << 24

// CheckAllowed parses body in both modes, resolves agent and decides
// rawURL, and checks: Allowed, AllowedPath, Robots.Allowed, AnyAgent and
// the compiled automaton (Agent.Compile) agree with Decide, which is cold; Decide().Rule is nil (the URL allowed) or a rule of a
// group the agent obeys whose Allow is the verdict; the groups the agent
// obeys are those an independent resolution picks; and the verdict and
// deciding rule are those of a brute-force longest match over the rules
// (compile.Reference), Google's index.html rule and RFC normalisation
// included.
func CheckAllowed(body []byte, agent, rawURL string) error {
	return CheckDecisions(body, []string{agent}, []string{rawURL})
}

// CheckDecisions is CheckAllowed for every agent and URL given, parsing
// body once per mode.
func CheckDecisions(body []byte, agents, urls []string) error {
	for _, m := range modes {
		r := robots.Parse(body, robots.WithMode(robots.Mode(m)))
		compiled := robots.Parse(body, robots.WithMode(robots.Mode(m)))
		for _, agent := range agents {
			a, anyAgent := r.Agent(agent), r.AnyAgent(agent)
			hot := compiled.Agent(agent).Compile()
			groups := r.Groups()
			sel := a.Groups()
			if want := resolveOracle(groups, agent); !equalInts(sel, want) {
				return fmt.Errorf("%v mode, agent %q: obeys groups %v, want %v", m, agent, sel, want)
			}
			for _, u := range urls {
				if err := checkDecision(r, a, anyAgent, hot, agent, u, m); err != nil {
					return fmt.Errorf("%v mode, agent %q, URL %q: %w", m, agent, u, err)
				}
			}
		}
		_ = r.Sitemaps()
		_ = r.Others()
	}
	return nil
}

func checkDecision(r *robots.Robots, a, anyAgent, hot *robots.Agent, agent, rawURL string, mode compile.Mode) error {
	d := a.Decide(rawURL)
	if got := a.Allowed(rawURL); got != d.Allowed {
		return fmt.Errorf("verdicts differ: Allowed %v, Decide %+v", got, d)
	}
	if got := a.AllowedPath(runtime.Path(rawURL)); got != d.Allowed {
		return fmt.Errorf("AllowedPath = %v, Decide = %+v", got, d)
	}
	if got := r.Allowed(agent, rawURL); got != d.Allowed {
		return fmt.Errorf("Robots.Allowed = %v, Decide = %+v", got, d)
	}
	if got := hot.Allowed(rawURL); got != d.Allowed {
		return fmt.Errorf("compiled Allowed = %v, Decide = %+v", got, d)
	}
	// The checks above are cold (rules tested one by one) while the rule
	// set has answered few; a compiled copy of the same file must agree.
	compiled := hot.Decide(rawURL)
	if compiled.Allowed != d.Allowed || (compiled.Rule == nil) != (d.Rule == nil) ||
		d.Rule != nil && *compiled.Rule != *d.Rule {
		return fmt.Errorf("compiled rules decide %+v, cold %+v", compiled, d)
	}
	if got := anyAgent.Decide(rawURL); got != d {
		return fmt.Errorf("AnyAgent decides %+v, Agent %+v", got, d)
	}
	if u, err := url.Parse(rawURL); err == nil {
		_ = a.AllowedURL(u)
	}

	groups := r.Groups()
	sel := a.Groups()
	if d.Rule != nil {
		if d.Rule.Allow != d.Allowed {
			return fmt.Errorf("rule %+v decides allowed = %v", *d.Rule, d.Allowed)
		}
		found := false
		for _, gi := range sel {
			for ri := range groups[gi].Rules {
				found = found || d.Rule == &groups[gi].Rules[ri]
			}
		}
		if !found {
			return fmt.Errorf("deciding rule %+v is no rule of the agent's groups", *d.Rule)
		}
		if d.Implicit {
			return fmt.Errorf("implicit decision with a rule")
		}
	} else if !d.Allowed {
		return fmt.Errorf("disallowed by no rule")
	}
	if d.Implicit && (mode != compile.RFC || !d.Allowed) {
		return fmt.Errorf("implicit decision %+v", d)
	}

	want, implicit, ok := decideOracle(groups, sel, runtime.Path(rawURL), mode)
	if !ok {
		return nil
	}
	if implicit != d.Implicit || want != d.Rule {
		return fmt.Errorf("decision %+v, the oracle's rule is %+v (implicit %v)", d, want, implicit)
	}
	return nil
}

// resolveOracle picks the groups an agent obeys: those with a user-agent
// line whose product token equals agent ignoring ASCII case, or when there
// are none those with a global user-agent line.
func resolveOracle(groups []robots.Group, agent string) []int {
	var specific, global []int
	for i, g := range groups {
		named, star := false, false
		for _, a := range g.Agents {
			if a.Global {
				star = true
			} else if asciiEqualFold(a.Token, agent) {
				named = true
			}
		}
		if named {
			specific = append(specific, i)
		}
		if star {
			global = append(global, i)
		}
	}
	if specific != nil {
		return specific
	}
	return global
}

// decideOracle finds the rule that decides path among the selected groups
// with compile.Reference, the statement of what a rule set decides. ok is
// false when its work would exceed oracleBudget.
func decideOracle(groups []robots.Group, sel []int, path string, mode compile.Mode) (rule *robots.Rule, implicit, ok bool) {
	var rules []*robots.Rule
	var values []compile.Rule
	work := 0
	for _, gi := range sel {
		for ri := range groups[gi].Rules {
			r := &groups[gi].Rules[ri]
			rules, values = append(rules, r), append(values, compile.Rule(*r))
			work += (len(r.Pattern) + 1) * (len(path) + 1)
		}
	}
	if work > oracleBudget {
		return nil, false, false
	}
	v := compile.Reference(values, path, mode.Dialect())
	if v.Matched {
		rule = rules[v.ID]
	}
	return rule, v.Implicit, true
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// SetPatterns builds the patterns of an automaton check: one per line of
// spec (at most 64), allow when bit i%64 of allow is set, ID i, and
// priority len(Expr), or len(Expr) modulo tie+1 when tie > 0, so that
// ties come up often.
func SetPatterns(spec string, allow uint64, tie uint8) []automaton.Pattern {
	lines := strings.Split(spec, "\n")
	if len(lines) > 64 {
		lines = lines[:64]
	}
	ps := make([]automaton.Pattern, len(lines))
	for i, e := range lines {
		prio := len(e)
		if tie > 0 {
			prio %= int(tie) + 1
		}
		ps[i] = automaton.Pattern{Expr: e, Allow: allow>>(i%64)&1 == 1, Priority: int32(prio), ID: int32(i)}
	}
	return ps
}

// DecodeSetInput splits one byte string into an automaton check: 8 bytes
// of allow bits, a tie byte, the path up to the first LF, then the
// patterns, one per line.
func DecodeSetInput(data []byte) (patterns []automaton.Pattern, path string) {
	var head [9]byte
	n := copy(head[:], data)
	data = data[n:]
	path, spec, _ := strings.Cut(string(data), "\n")
	return SetPatterns(spec, binary.LittleEndian.Uint64(head[:8]), head[8]), path
}

// checkSetRounds is how many times CheckSet decides a path: enough for
// every state the path reaches to get its row of the table (after four
// reads, automaton's rowAfter) and be walked from it, settled entries
// included.
const checkSetRounds = 6

// CheckSet decides path with automaton.NewSet and with
// automaton.Reference and compares the verdict and the deciding pattern,
// checkSetRounds times, and Allowed with the verdict.
func CheckSet(patterns []automaton.Pattern, path string) error {
	set := automaton.NewSet(patterns, automaton.Options{})
	nonEmpty := 0
	for _, p := range patterns {
		if p.Expr != "" {
			nonEmpty++
		}
	}
	want, matched := automaton.Reference(patterns, path)
	if set.Len() != nonEmpty {
		return fmt.Errorf("set.Len() = %d, want %d", set.Len(), nonEmpty)
	}
	allowed := !matched || want.Allow
	for round := range checkSetRounds {
		got, ok := set.Decide(path)
		switch {
		case !matched && ok:
			return fmt.Errorf("round %d: Decide(%q) = %+v, want no match", round, path, got)
		case matched && (!ok || got != want):
			return fmt.Errorf("round %d: Decide(%q) = %+v, %v, want %+v", round, path, got, ok, want)
		}
		if got := set.Allowed(path, ""); got != allowed {
			return fmt.Errorf("round %d: Allowed(%q) = %v, want %v", round, path, got, allowed)
		}
	}
	return nil
}

// normalizeRFCPath is the form RFC mode matches a path in.
func normalizeRFCPath(p string) string { return compile.RFC.Dialect().Subject(p) }
