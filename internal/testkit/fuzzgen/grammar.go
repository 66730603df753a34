package fuzzgen

import (
	"math/rand/v2"
	"strings"
)

// The grammar Generate follows is RFC 9309 section 2.2 (ABNF of RFC 5234,
// whose quoted strings are case-insensitive):
//
//	robotstxt = *(group / emptyline)
//	group = startgroupline                ; We start with a user-agent line
//	        *(startgroupline / emptyline) ; ... and possibly more user-agent lines
//	        *(rule / emptyline)           ; followed by rules relevant for them
//	startgroupline = *WS "user-agent" *WS ":" *WS product-token EOL
//	rule = *WS ("allow" / "disallow") *WS ":" *WS (path-pattern / empty-pattern) EOL
//	product-token = identifier / "*"
//	path-pattern = "/" *UTF8-char-noctl ; valid URI path pattern
//	empty-pattern = *WS
//	identifier = 1*(%x2D / %x41-5A / %x5F / %x61-7A)
//	comment = "#" *(UTF8-char-noctl / WS / "#")
//	emptyline = EOL
//	EOL = *WS [comment] NL ; end-of-line may have optional trailing comment
//	NL = %x0D / %x0A / %x0D.0A
//	WS = %x20 / %x09
//	UTF8-char-noctl = UTF8-1-noctl / UTF8-2 / UTF8-3 / UTF8-4
//	UTF8-1-noctl = %x21 / %x22 / %x24-7F ; excluding control, space, "#"
//	UTF8-2 = %xC2-DF UTF8-tail
//	UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2UTF8-tail /
//	         %xED %x80-9F UTF8-tail / %xEE-EF 2UTF8-tail
//	UTF8-4 = %xF0 %x90-BF 2UTF8-tail / %xF1-F3 3UTF8-tail /
//	         %xF4 %x80-8F 2UTF8-tail
//	UTF8-tail = %x80-BF
//
// The RFC leaves other lines to implementors ("define additional lines you
// need (for example, Sitemaps)") and section 2.2.4 says they must not
// interfere with the groups. With Config.Extensions, Generate also writes,
// anywhere a line may stand:
//
//	sitemapline = *WS "sitemap" *WS ":" *WS URI EOL
//	otherline   = *WS other-key *WS ":" *WS [other-value] EOL
//	other-key   = 1*(ALPHA / DIGIT / "-" / "_")  ; starting with no field
//	                                             ; name nor a misspelling
//	                                             ; Google accepts
//	other-value = UTF8-char-noctl *(*WS UTF8-char-noctl)
//
// Two points the ABNF leaves open are settled as every parser settles them:
//
//   - NL: a line ended by a lone CR followed by an empty line ended by LF
//     reads "\r\n", one CRLF break, not two. Generate never writes that
//     pair; it ends such an empty line with CRLF or CR instead.
//   - group: a group without rules followed by a user-agent line is one
//     run of user-agent lines, whose agents share the rules that follow
//     (RFC 9309 section 2.1: consecutive user-agent lines form one group).
//     File.Groups merges such groups.

// Field is what a line of a robots.txt is.
type Field uint8

const (
	Blank     Field = iota // an emptyline: white space, a comment, or nothing
	UserAgent              // a startgroupline
	Allow                  // a rule with "allow"
	Disallow               // a rule with "disallow"
	Sitemap                // a sitemap line
	Unknown                // any other "key: value" line
)

func (f Field) String() string {
	switch f {
	case Blank:
		return "blank"
	case UserAgent:
		return "user-agent"
	case Allow:
		return "allow"
	case Disallow:
		return "disallow"
	case Sitemap:
		return "sitemap"
	}
	return "unknown"
}

// Line is one generated line.
type Line struct {
	Num   int    // 1-based line number
	Field Field  // what the line is
	Key   string // the key as written (case varies), "" for a blank line
	Value string // the value a parser must read: no white space around, no comment
	Text  string // the bytes of the line, without its break
	NL    string // the line break: "\n", "\r" or "\r\n"

	// The text is lead + Key + sep + Value + tail, where sep holds the colon;
	// mutations rebuild a line from these pieces.
	lead, sep, tail string
}

// Agent is a user-agent line of a group.
type Agent struct {
	Line  int
	Value string // the product token as written: an identifier or "*"
}

// Rule is an allow or disallow line of a group.
type Rule struct {
	Line  int
	Allow bool
	Value string // the path pattern as written, or "" for an empty pattern
}

// Group is one group as a parser must read it: its user-agent lines and the
// rules that follow them.
type Group struct {
	Agents []Agent
	Rules  []Rule
}

// File is a generated robots.txt and the structure it was built with.
type File struct {
	Body     []byte
	Lines    []Line  // every line, in order: Lines[i].Num == i+1
	Groups   []Group // as a parser must read them (see the note on groups above)
	Sitemaps []Line  // sitemap lines, in order
	Others   []Line  // other (unknown) lines, in order
}

// LineCount is the number of lines a parser counts: every generated line
// ends with a break, so the empty line after the last one counts too.
func (f *File) LineCount() int { return len(f.Lines) + 1 }

// Directives returns the lines that hold a directive, in order.
func (f *File) Directives() []Line {
	var out []Line
	for _, l := range f.Lines {
		if l.Field != Blank {
			out = append(out, l)
		}
	}
	return out
}

// Tokens returns the directives as ReferenceScan reports them. Every line
// of the grammar reads the same in Google's and in RFC mode.
func (f *File) Tokens() []Token {
	var out []Token
	for _, l := range f.Directives() {
		out = append(out, Token{Line: l.Num, Field: l.Field, Key: l.Key, Value: l.Value})
	}
	return out
}

// Config bounds what Generate writes. Zero fields take DefaultConfig's.
type Config struct {
	MaxItems   int  // top-level items: groups, empty lines, extension lines
	MaxAgents  int  // user-agent lines in one group
	MaxRules   int  // rules in one group
	MaxValue   int  // bytes of a path pattern after its '/', roughly
	Extensions bool // write sitemap and other lines too
}

// DefaultConfig is a small file, large enough to hold every production.
func DefaultConfig() Config {
	return Config{MaxItems: 10, MaxAgents: 3, MaxRules: 8, MaxValue: 24, Extensions: true}
}

// Generate writes a random robots.txt derived from the grammar above and
// returns it with its structure.
func Generate(r *rand.Rand, cfg Config) *File {
	def := DefaultConfig()
	if cfg.MaxItems <= 0 {
		cfg.MaxItems = def.MaxItems
	}
	if cfg.MaxAgents <= 0 {
		cfg.MaxAgents = def.MaxAgents
	}
	if cfg.MaxRules < 0 {
		cfg.MaxRules = 0
	}
	if cfg.MaxValue <= 0 {
		cfg.MaxValue = def.MaxValue
	}
	g := &gen{r: r, cfg: cfg, f: &File{}}
	for n := r.IntN(cfg.MaxItems + 1); n > 0; n-- {
		switch k := r.IntN(10); {
		case k < 6:
			g.group()
		case k < 8 || !cfg.Extensions:
			g.emptyLine()
		default:
			g.extensionLine()
		}
	}
	g.f.Groups = mergeRuleless(g.groups)
	return g.f
}

type gen struct {
	r      *rand.Rand
	cfg    Config
	f      *File
	prevCR bool    // the last line ended with a lone CR
	groups []Group // groups as written, before merging
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// group writes a group: user-agent lines, then rules, each run with empty
// (and extension) lines among it.
func (g *gen) group() {
	var grp Group
	for n := 1 + g.r.IntN(g.cfg.MaxAgents); n > 0; n-- {
		grp.Agents = append(grp.Agents, g.startGroupLine())
		g.filler()
	}
	for n := g.r.IntN(g.cfg.MaxRules + 1); n > 0; n-- {
		grp.Rules = append(grp.Rules, g.rule())
		g.filler()
	}
	g.groups = append(g.groups, grp)
}

// filler writes, now and then, an empty line or an extension line, which
// neither end nor split a group.
func (g *gen) filler() {
	switch {
	case g.chance(0.15):
		g.emptyLine()
	case g.cfg.Extensions && g.chance(0.1):
		g.extensionLine()
	}
}

func (g *gen) startGroupLine() Agent {
	v := g.productToken()
	n := g.directive(UserAgent, g.caseOf("user-agent"), v)
	return Agent{Line: n, Value: v}
}

func (g *gen) rule() Rule {
	allow := g.chance(0.4)
	name, field := "disallow", Disallow
	if allow {
		name, field = "allow", Allow
	}
	v := ""
	if g.chance(0.9) {
		v = g.pathPattern()
	} // else empty-pattern: only white space
	n := g.directive(field, g.caseOf(name), v)
	return Rule{Line: n, Allow: allow, Value: v}
}

func (g *gen) extensionLine() {
	if g.chance(0.4) {
		g.directive(Sitemap, g.caseOf("sitemap"), g.uri())
		return
	}
	g.directive(Unknown, g.otherKey(), g.otherValue())
}

// directive writes *WS key *WS ":" *WS value EOL and returns its number.
func (g *gen) directive(field Field, key, value string) int {
	lead := g.ws()
	sep := g.ws() + ":" + g.ws()
	tail := g.eol()
	l := Line{Field: field, Key: key, Value: value, lead: lead, sep: sep, tail: tail}
	return g.emit(l)
}

func (g *gen) emptyLine() { g.emit(Line{Field: Blank, tail: g.eol()}) }

// emit finishes a line with a break and appends it to the file.
func (g *gen) emit(l Line) int {
	l.Text = l.lead + l.Key + l.sep + l.Value + l.tail
	l.NL = g.nl(l.Text)
	l.Num = len(g.f.Lines) + 1
	g.f.Lines = append(g.f.Lines, l)
	g.f.Body = append(g.f.Body, l.Text...)
	g.f.Body = append(g.f.Body, l.NL...)
	switch l.Field {
	case Sitemap:
		g.f.Sitemaps = append(g.f.Sitemaps, l)
	case Unknown:
		g.f.Others = append(g.f.Others, l)
	}
	return l.Num
}

// nl picks a line break. After a lone CR, an empty line does not end with
// a bare LF: the pair would read as one CRLF.
func (g *gen) nl(text string) string {
	nl := [...]string{"\n", "\r", "\r\n"}[g.r.IntN(3)]
	if g.prevCR && text == "" && nl == "\n" {
		nl = "\r\n"
	}
	g.prevCR = nl == "\r"
	return nl
}

// ws is *WS, mostly short.
func (g *gen) ws() string {
	n := 0
	switch k := g.r.IntN(10); {
	case k < 5:
		n = 0
	case k < 8:
		n = 1
	default:
		n = 2 + g.r.IntN(3)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = " \t"[g.r.IntN(2)]
	}
	return string(b)
}

// eol is EOL without its NL: *WS [comment].
func (g *gen) eol() string {
	s := g.ws()
	if g.chance(0.25) {
		s += g.comment()
	}
	return s
}

// comment is "#" *(UTF8-char-noctl / WS / "#").
func (g *gen) comment() string {
	var b strings.Builder
	b.WriteByte('#')
	for n := g.r.IntN(12); n > 0; n-- {
		switch k := g.r.IntN(10); {
		case k < 2:
			b.WriteByte(" \t"[g.r.IntN(2)])
		case k < 3:
			b.WriteByte('#')
		case k < 4:
			b.WriteByte(':') // a colon in a comment is no separator
		default:
			g.charNoCtl(&b)
		}
	}
	return b.String()
}

// caseOf spells a field name with each letter in a random case.
func (g *gen) caseOf(name string) string {
	b := []byte(name)
	for i, c := range b {
		if 'a' <= c && c <= 'z' && g.chance(0.3) {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

var knownAgents = []string{
	"Googlebot", "Googlebot-Image", "googlebot-news", "Bingbot", "FooBot",
	"Mediapartners-Google", "AdsBot-Google", "Slurp", "a", "_", "-", "X-_-y",
}

// productToken is identifier / "*".
func (g *gen) productToken() string {
	switch k := g.r.IntN(10); {
	case k < 3:
		return "*"
	case k < 7:
		return knownAgents[g.r.IntN(len(knownAgents))]
	}
	const alphabet = "-_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 1+g.r.IntN(12))
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

// pathPattern is "/" *UTF8-char-noctl, drawn so that the characters with a
// meaning ('*', '$', '%', '?', index.html) come up often.
func (g *gen) pathPattern() string {
	var b strings.Builder
	b.WriteByte('/')
	for n := g.r.IntN(g.cfg.MaxValue + 1); b.Len() <= n; {
		g.pathPiece(&b)
	}
	return b.String()
}

func (g *gen) pathPiece(b *strings.Builder) {
	switch k := g.r.IntN(100); {
	case k < 30:
		const seg = "abcdefxyz0129"
		for n := 1 + g.r.IntN(6); n > 0; n-- {
			b.WriteByte(seg[g.r.IntN(len(seg))])
		}
	case k < 40:
		b.WriteByte('/')
	case k < 48:
		b.WriteByte('*')
	case k < 53:
		b.WriteByte('$')
	case k < 61: // pct-encoded, in either case
		const hex = "0123456789abcdefABCDEF"
		b.WriteByte('%')
		b.WriteByte(hex[g.r.IntN(len(hex))])
		b.WriteByte(hex[g.r.IntN(len(hex))])
	case k < 66:
		b.WriteString([...]string{"index.htm", "index.html", "/index.html", "index.php"}[g.r.IntN(4)])
	case k < 71:
		b.WriteString([...]string{"?", "?a=b", "&c=d", ";p", "?q="}[g.r.IntN(5)])
	case k < 82:
		g.ascii(b)
	default:
		g.multiByte(b)
	}
}

// charNoCtl is one UTF8-char-noctl.
func (g *gen) charNoCtl(b *strings.Builder) {
	if g.chance(0.7) {
		g.ascii(b)
	} else {
		g.multiByte(b)
	}
}

// ascii is UTF8-1-noctl: %x21 / %x22 / %x24-7F.
func (g *gen) ascii(b *strings.Builder) {
	k := g.r.IntN(2 + 0x7F - 0x24 + 1)
	switch k {
	case 0:
		b.WriteByte(0x21)
	case 1:
		b.WriteByte(0x22)
	default:
		b.WriteByte(byte(0x24 + k - 2))
	}
}

// multiByte is UTF8-2 / UTF8-3 / UTF8-4, every range of the grammar.
func (g *gen) multiByte(b *strings.Builder) {
	in := func(lo, hi int) byte { return byte(lo + g.r.IntN(hi-lo+1)) }
	tail := func() byte { return in(0x80, 0xBF) }
	var s []byte
	switch g.r.IntN(8) {
	case 0, 1:
		s = []byte{in(0xC2, 0xDF), tail()}
	case 2:
		s = []byte{0xE0, in(0xA0, 0xBF), tail()}
	case 3:
		s = []byte{in(0xE1, 0xEC), tail(), tail()}
	case 4:
		s = []byte{0xED, in(0x80, 0x9F), tail()}
	case 5:
		s = []byte{in(0xEE, 0xEF), tail(), tail()}
	case 6:
		s = []byte{0xF0, in(0x90, 0xBF), tail(), tail()}
	default:
		if g.chance(0.5) {
			s = []byte{in(0xF1, 0xF3), tail(), tail(), tail()}
		} else {
			s = []byte{0xF4, in(0x80, 0x8F), tail(), tail()}
		}
	}
	b.Write(s)
}

// uri is a sitemap URL: ASCII, no white space, no '#'.
func (g *gen) uri() string {
	var b strings.Builder
	b.WriteString([...]string{"http://", "https://", "HTTPS://"}[g.r.IntN(3)])
	const host = "abcxyz019-."
	for n := 1 + g.r.IntN(12); n > 0; n-- {
		b.WriteByte(host[g.r.IntN(len(host))])
	}
	b.WriteByte('/')
	for n := g.r.IntN(g.cfg.MaxValue + 1); n > 0; n-- {
		g.ascii(&b)
	}
	return b.String()
}

var otherKeys = []string{
	"Crawl-delay", "Host", "Clean-param", "Request-rate", "Visit-time",
	"Noindex", "Content-Signal", "crawl_delay", "X-Robots", "Cache-delay",
}

// otherKey is a key no parser mode reads as a field.
func (g *gen) otherKey() string {
	if g.chance(0.6) {
		return otherKeys[g.r.IntN(len(otherKeys))]
	}
	const alphabet = "-_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	for {
		b := make([]byte, 1+g.r.IntN(10))
		for i := range b {
			b[i] = alphabet[g.r.IntN(len(alphabet))]
		}
		if googleField(string(b)) == Unknown {
			return string(b)
		}
	}
}

// otherValue is words of UTF8-char-noctl separated by white space.
func (g *gen) otherValue() string {
	var b strings.Builder
	for w := g.r.IntN(4); w > 0; w-- {
		if b.Len() > 0 {
			b.WriteString(" \t"[g.r.IntN(2):][:1])
			if g.chance(0.3) {
				b.WriteByte(' ')
			}
		}
		for n := 1 + g.r.IntN(8); n > 0; n-- {
			g.charNoCtl(&b)
		}
	}
	return b.String()
}

// mergeRuleless merges each group without rules into the group after it:
// their user-agent lines form one run.
func mergeRuleless(groups []Group) []Group {
	var out []Group
	for _, grp := range groups {
		if n := len(out); n > 0 && len(out[n-1].Rules) == 0 {
			out[n-1].Agents = append(out[n-1].Agents, grp.Agents...)
			out[n-1].Rules = append(out[n-1].Rules, grp.Rules...)
			continue
		}
		out = append(out, Group{
			Agents: append([]Agent(nil), grp.Agents...),
			Rules:  append([]Rule(nil), grp.Rules...),
		})
	}
	return out
}
