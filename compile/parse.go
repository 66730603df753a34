package compile

import (
	"bytes"
	"strings"
	"sync"

	"github.com/fastrobots/robots/automaton"
)

// Options control parsing. The zero value reads as Google does, up to
// DefaultMaxBytes.
type Options struct {
	// Mode selects Google's lenient reading (the default) or strict RFC 9309.
	Mode Mode
	// MaxBytes is how much of the body is read; the rest is ignored. Zero
	// means DefaultMaxBytes; a negative value means no limit.
	MaxBytes int
	// Meter, when set, counts the memory the File holds, and later what
	// its view and the rule sets compiled from it add.
	Meter *automaton.Meter
}

func (o Options) maxBytes() int {
	if o.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// File is a parsed robots.txt.
//
// Parsing keeps one copy of the body and, for each directive line, a
// record of a few integers that locate its value in that copy: no string
// is built and no pattern escaped unless it needs it. The groups, sitemaps
// and other lines as values of the exported types (Group, Rule, Directive)
// are built from the records the first time one of Groups, Sitemaps or
// Others is called, and kept; resolving a crawler's groups and checking
// URLs need none of them.
type File struct {
	Mode      Mode
	Lines     int  // number of lines read, the last one included
	Truncated bool // the body was longer than Options.MaxBytes

	body     string
	rules    []ruleRec  // every rule of every group, in file order
	agents   []agentRec // every user-agent line, in file order
	groups   []groupRec // each group's first user-agent line, rule and other line
	sitemaps []dirRec   // sitemap lines, in file order
	others   []dirRec   // unknown lines, in file order
	escaped  map[int32]string

	// names holds the groups that name each product token; global lists
	// the groups that name '*'.
	names  names
	global []int32

	viewOnce sync.Once
	view     view
	meter    *automaton.Meter
}

// ruleRec locates a rule: its value is body[off:off+n>>2]; bit 0 of n is
// set for an allow, bit 1 when the pattern differs from the value (it had
// bytes to escape) and is in File.escaped.
type ruleRec struct {
	line, off, n uint32
}

func (r ruleRec) allow() bool     { return r.n&1 != 0 }
func (r ruleRec) isEscaped() bool { return r.n&2 != 0 }
func (r ruleRec) value(b string) string {
	return b[r.off : r.off+r.n>>2]
}

// agentRec locates a user-agent line: its value is body[off:off+n], its
// product token the first tok bytes of it.
type agentRec struct {
	line, off, n uint32
	tok          uint16
	global       bool
}

// groupRec is where a group's user-agent lines, rules and unknown lines
// start in File.agents, File.rules and File.others; a group's lines are
// contiguous there, because a line always joins the last group.
type groupRec struct {
	agent, rule, other int32
}

func (g groupRec) agentLo() int32 { return g.agent }
func (g groupRec) ruleLo() int32  { return g.rule }
func (g groupRec) otherLo() int32 { return g.other }

// dirRec locates a sitemap or unknown line: key body[keyOff:keyOff+keyN],
// value body[off:off+n].
type dirRec struct {
	line, keyOff, off, n uint32
	keyN                 uint16
}

// Group is a run of user-agent lines and the rules that follow them.
type Group struct {
	Agents []AgentLine
	Rules  []Rule
	// Extras are the directives this package does not interpret
	// (crawl-delay, request-rate, ...) that stand after the group's first
	// user-agent line and before the next group. They are also in
	// File.Others and change no verdict.
	Extras []Directive
}

// AgentLine is one user-agent line of a group.
type AgentLine struct {
	Line   int
	Value  string // the value as written, trimmed
	Token  string // the product token compared with a crawler's agent ("" for '*')
	Global bool   // the line names every crawler ('*')
}

// Rule is one allow or disallow line of a group.
type Rule struct {
	Line    int
	Allow   bool
	Value   string // the value as written, trimmed
	Pattern string // the value escaped by EscapePattern: what is matched
}

// Directive is a line outside the group structure: a sitemap or a directive
// this package does not interpret (crawl-delay, host, ...).
type Directive struct {
	Line  int
	Key   string // the key as written
	Value string
}

// Parse reads a robots.txt. Any byte string is a robots.txt: lines that do
// not parse are skipped, as RFC 9309 section 2.2 and Google both ask.
func Parse(data []byte, opts Options) *File {
	data, truncated := truncate(data, opts.maxBytes())
	f := &File{Mode: opts.Mode, Truncated: truncated, body: string(data), meter: opts.Meter}
	b := builder{file: f, lenient: opts.Mode == Google}
	b.rules = make([]ruleRec, 0, ruleCapacity(data))
	f.Lines = b.scan()
	f.rules, f.agents = b.rules, b.agents
	f.meter.Add(f.memoryBytes())
	return f
}

// ruleCapacity guesses how many rules data holds, so that they take one
// allocation: at most one per colon (a rule line without one is rare) and
// per line, and no more than one per 16 bytes, so that a body of junk does
// not reserve more memory than it is long. A file with more rules grows
// the slice as usual.
func ruleCapacity(data []byte) int {
	colons := bytes.Count(data, []byte{':'})
	lines := bytes.Count(data, []byte{'\n'})
	return min(colons, lines, len(data)/16) + 1
}

// builder reads the body line by line and records its directives.
type builder struct {
	file    *File
	lenient bool
	rules   []ruleRec
	agents  []agentRec
	// closed is set by an allow or disallow line, so that the next
	// user-agent line starts a new group. Sitemap and unknown lines leave
	// it alone: they neither end a run of user-agent lines nor a group, as
	// in Google's parser and as RFC 9309 section 2.2.4 requires ("MUST NOT
	// interfere").
	closed bool
}

// scan records every directive of the body and returns the number of
// lines. It is Scan with the steps inlined: the lines are found by the
// same scanner, split by the same rules as SplitKeyValue, and keys
// classified by the same table as ClassifyKey.
func (b *builder) scan() int {
	body := b.file.body
	sc := newScanner(body)
	hash, colon := finder{c: '#'}, finder{c: ':'}
	for {
		start, end, num := sc.next()
		textEnd := min(sc.textEnd(start, end), hash.next(body, start))
		if sep := colon.next(body, start); sep < textEnd {
			b.directive(num, start, sep, textEnd)
		} else if b.lenient {
			b.colonless(num, start, textEnd)
		}
		if sc.done() {
			return num
		}
	}
}

// directive records the line whose text is body[start:end] with its first
// colon at sep.
func (b *builder) directive(num, start, sep, end int) {
	body := b.file.body
	ks, ke := trimBounds(body, start, sep)
	if ks == ke {
		return
	}
	vs, ve := trimBounds(body, sep+1, end)
	b.add(num, ks, ke, vs, ve)
}

// colonless reads a line without a colon as Google does: exactly two
// words separated by spaces or tabs are a key and a value.
func (b *builder) colonless(num, start, end int) {
	text := b.file.body[start:end]
	key, value, ok := SplitKeyValue(text, true)
	if !ok {
		return
	}
	ks := start + strings.Index(text, key)
	vs := ks + len(key) + strings.Index(text[ks-start+len(key):], value)
	b.add(num, ks, ks+len(key), vs, vs+len(value))
}

// add records the directive with key body[ks:ke] and value body[vs:ve].
func (b *builder) add(num, ks, ke, vs, ve int) {
	body := b.file.body
	kind, _, _ := ClassifyKey(body[ks:ke], b.file.Mode)
	switch kind {
	case UserAgent:
		b.userAgent(num, vs, ve)
	case Allow, Disallow:
		b.rule(num, kind == Allow, vs, ve)
	default:
		b.other(num, kind == Sitemap, ks, ke, vs, ve)
	}
}

func (b *builder) userAgent(num, vs, ve int) {
	f := b.file
	if len(f.groups) == 0 || b.closed {
		f.groups = append(f.groups, groupRec{agent: int32(len(b.agents)), rule: int32(len(b.rules)), other: int32(len(f.others))})
		b.closed = false
	}
	gi := int32(len(f.groups) - 1)
	value := f.body[vs:ve]
	a := agentRec{line: uint32(num), off: uint32(vs), n: uint32(ve - vs), global: IsGlobalAgent(value, f.Mode)}
	if a.global {
		f.global = appendGroup(f.global, gi)
	} else {
		token := ExtractAgent(value)
		a.tok = uint16(len(token))
		f.names.add(token, gi)
	}
	b.agents = append(b.agents, a)
}

func (b *builder) rule(num int, allow bool, vs, ve int) {
	b.closed = true
	f := b.file
	if len(f.groups) == 0 {
		return // a rule before any user-agent line belongs to no group
	}
	r := ruleRec{line: uint32(num), off: uint32(vs), n: uint32(ve-vs) << 2}
	if allow {
		r.n |= 1
	}
	if value := f.body[vs:ve]; needsEscape(value) {
		r.n |= 2
		if f.escaped == nil {
			f.escaped = map[int32]string{}
		}
		f.escaped[int32(len(b.rules))] = EscapePattern(value)
	}
	b.rules = append(b.rules, r)
}

// other records a sitemap or unknown line. An unknown line joins the
// last group's extras, which group.other and the next group's delimit.
func (b *builder) other(num int, sitemap bool, ks, ke, vs, ve int) {
	f := b.file
	d := dirRec{line: uint32(num), keyOff: uint32(ks), keyN: uint16(ke - ks), off: uint32(vs), n: uint32(ve - vs)}
	if sitemap {
		f.sitemaps = append(f.sitemaps, d)
	} else {
		f.others = append(f.others, d)
	}
}

// trimBounds returns [i, j) with ASCII white space trimmed from both ends
// of body[i:j].
func trimBounds(body string, i, j int) (int, int) {
	for i < j && isSpace(body[i]) {
		i++
	}
	for j > i && isSpace(body[j-1]) {
		j--
	}
	return i, j
}

// Token is one directive line as the parser reads it.
type Token struct {
	Line  int
	Kind  Kind
	Key   string // the key as written
	Value string // the value as written, trimmed; not escaped
}

// Scan calls fn for every line of body that holds a directive, in order,
// and returns the number of lines, the last one included. Lines with no
// directive (blank, comment only, no separator) are skipped, as both Google
// and RFC 9309 section 2.2 skip them. body must already be cut to the size
// limit.
func Scan(body string, mode Mode, fn func(Token)) (lines int) {
	Lines(body, func(l Line) {
		lines = l.Num
		key, value, ok := SplitKeyValue(l.Text, mode == Google)
		if !ok {
			return
		}
		kind, _, _ := ClassifyKey(key, mode)
		fn(Token{Line: l.Num, Kind: kind, Key: key, Value: value})
	})
	return lines
}
