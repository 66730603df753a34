package compile

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/alloc"
	"github.com/fastrobots/robots/internal/bytestr"
)

// Options control parsing. The zero value reads as Google does, up to
// DefaultMaxBytes.
type Options struct {
	// Mode selects Google's lenient reading (the default) or strict RFC 9309.
	Mode Mode
	// MaxBytes is how much of the body is read; the rest is ignored. Zero
	// means DefaultMaxBytes; a negative value means no limit.
	MaxBytes int
	// Meter, when set, counts the memory the File and its products hold.
	Meter *automaton.Meter
}

// Dialect returns the dialect of the file's mode.
func (f *File) Dialect() Dialect { return f.dialect }

// BodyLimit returns how many bytes of a body are read: MaxBytes, or
// DefaultMaxBytes when it is zero; negative for no limit.
func (o Options) BodyLimit() int {
	if o.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// File is a parsed robots.txt.
//
// Parsing keeps, for each directive line, a small record locating its
// value in one arena of just the bytes the records name, both allocated
// once at their exact size; the exported values are built on first use.
// As a cache may hold many files, what most lack is behind nil pointers.
type File struct {
	Mode      Mode
	dialect   Dialect // Mode's
	Truncated bool    // the body was longer than Options.MaxBytes
	Lines     int     // number of lines read, the last one included

	body   string     // the arena; while parsing, the body itself
	rules  []ruleRec  // every rule of every group, in file order
	agents []agentRec // every user-agent line, in file order
	groups []groupRec // each group's first user-agent line, rule and other line
	// others are the unknown lines; the sitemap lines follow in its spare
	// capacity (sitemapRecs), so nothing may append to it.
	others []dirRec
	rare   *rareRecs // nil when no rule needs one

	// names holds the groups that name each product token, nil for none;
	// global lists the groups that name '*'.
	names  *names
	global []int32

	views atomic.Pointer[views] // nil until Groups, Sitemaps, Others or a Rule is asked for
	meter *automaton.Meter
}

// rareRecs are what few files' rules need: patterns that differ from
// their values, and lines of rules far from the rule before them.
type rareRecs struct {
	escaped  map[int32]string
	farLines map[int32]uint32 // the line of each rule farGap or more lines after the rule before it
}

func (f *File) rareRecs() *rareRecs {
	if f.rare == nil {
		f.rare = &rareRecs{}
	}
	return f.rare
}

// ruleRec locates a rule: its value is body[off:off+size()]. Its bits
// hold, from the lowest: ruleAllowBit; ruleEscapedBit, set when the
// pattern is in rareRecs.escaped; the value's size; and the gap, the lines
// since the previous rule's, or farGap when rareRecs.farLines holds the
// line. A file holds one per rule, so it is kept to two words.
type ruleRec struct {
	off, bits uint32
}

const (
	ruleAllowBit   = 1 << 0
	ruleEscapedBit = 1 << 1
	ruleSizeShift  = 2
	// The value's size, then the gap; farGap sends the reader to farLines.
	ruleSizeBits = 15
	ruleSizeMask = 1<<ruleSizeBits - 1
	ruleGapShift = ruleSizeShift + ruleSizeBits
	farGap       = 1<<(32-ruleGapShift) - 1
)

// A value of MaxLineBytes must fit ruleSizeBits.
var _ [ruleSizeMask - MaxLineBytes]struct{}

// newRuleRec packs a record; size <= MaxLineBytes and gap <= farGap.
func newRuleRec(off uint32, size int, allow, escaped bool, gap uint32) ruleRec {
	bits := uint32(size)<<ruleSizeShift | gap<<ruleGapShift
	if allow {
		bits |= ruleAllowBit
	}
	if escaped {
		bits |= ruleEscapedBit
	}
	return ruleRec{off: off, bits: bits}
}

func (r ruleRec) allow() bool     { return r.bits&ruleAllowBit != 0 }
func (r ruleRec) isEscaped() bool { return r.bits&ruleEscapedBit != 0 }
func (r ruleRec) size() uint32    { return r.bits >> ruleSizeShift & ruleSizeMask }
func (r ruleRec) gap() uint32     { return r.bits >> ruleGapShift }
func (r ruleRec) value(b string) string {
	return b[r.off : r.off+r.size()]
}

// agentRec locates a user-agent line: its value is body[off:off+n], its
// product token the first tok bytes of it.
type agentRec struct {
	line, off, n uint32
	tok          uint16
	global       bool
}

// groupRec is where a group's user-agent lines, rules and unknown lines
// start in File.agents, File.rules and File.others; they are contiguous,
// as a line always joins the last group.
type groupRec struct {
	agent, rule, other int32
}

func (g groupRec) agentLo() int32 { return g.agent }
func (g groupRec) ruleLo() int32  { return g.rule }
func (g groupRec) otherLo() int32 { return g.other }

// dirRec locates a sitemap or unknown line: key body[keyOff:keyOff+keyN],
// value body[off:off+n], both within one line.
type dirRec struct {
	line, keyOff, off uint32
	keyN, n           uint16
}

// A size of MaxLineBytes must fit dirRec's.
var _ [1<<16 - 1 - MaxLineBytes]struct{}

// Group is a run of user-agent lines and the rules that follow them. Like
// everything a File returns, a Group and its slices are shared and must
// not be modified.
type Group struct {
	// Agents are the group's user-agent lines, at least one, in file order.
	Agents []AgentLine
	// Rules are the group's allow and disallow lines, in file order.
	Rules []Rule
	// Extras are the directives not interpreted here (crawl-delay, ...)
	// between the group's first user-agent line and the next group. They
	// are also in File.Others and change no verdict.
	Extras []Directive
}

// AgentLine is one user-agent line of a group.
type AgentLine struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Value is the value as written, trimmed of white space.
	Value string
	// Token is the product token a crawler's agent is compared with
	// (ExtractAgent); "" when Global.
	Token string
	// Global is true when the line names every crawler ('*').
	Global bool
}

// Rule is one allow or disallow line of a group.
type Rule struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Allow is true for an allow line, false for a disallow line.
	Allow bool
	// Value is the value as written, trimmed of white space.
	Value string
	// Pattern is what is matched against a URL's path: Value escaped by
	// EscapePattern. An empty Pattern decides no URL.
	Pattern string
}

// Directive is a line outside the group structure: a sitemap, or a
// directive not interpreted here (crawl-delay, host, ...).
type Directive struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Key is the directive's name as written ("Sitemap", "crawl-delay").
	Key string
	// Value is the value as written, trimmed of white space.
	Value string
}

// Parse reads a robots.txt. Any byte string is a robots.txt: lines that do
// not parse are skipped, as RFC 9309 section 2.2 and Google both ask. data
// is read during the call only, and not kept.
func Parse(data []byte, opts Options) *File { return parse(data, opts, true) }

// ParseReport is Parse that also returns Google's report of data, the
// report NewReport gives, recorded in the parse's own pass over the lines:
// a caller that wants the file and its report reads the body once. The
// report is Google's whatever opts.Mode. Parse records nothing of the kind,
// and a File holds no report: a crawler keeps many files and never asks.
func ParseReport(data []byte, opts Options) (*File, *Report) {
	r := &Report{}
	return ParseReportTo(data, opts, r), r
}

// ParseReportTo is ParseReport into r, whose Lines it reuses, or whose
// sink it hands them to (SinkReport).
func ParseReportTo(data []byte, opts Options, r *Report) *File {
	body, _ := truncate(data, opts.BodyLimit())
	r.reset(body)
	return parseInto(data, opts, true, r)
}

// parse is Parse with the quick path on or off, for tests to compare.
func parse(data []byte, opts Options, quick bool) *File { return parseInto(data, opts, quick, nil) }

// parseInto is parse that records Google's report of the lines in r,
// unless r is nil.
func parseInto(data []byte, opts Options, quick bool, r *Report) *File {
	data, truncated := truncate(data, opts.BodyLimit())
	f := &File{Mode: opts.Mode, dialect: opts.Mode.Dialect(), Truncated: truncated, meter: opts.Meter}
	// The body shares data: sound because data is read during this call
	// only and finish replaces the body with the arena.
	f.body = bytestr.String(data)
	b := builders.Get().(*builder)
	b.reset(f)
	b.quick = quick
	b.report = r
	if n := len(data) / 32; cap(b.rules) < n {
		// Reserve what a long body's lines could hold rather than grow by
		// copying; a rule line is rarely shorter than 32 bytes.
		b.rules = make([]ruleRec, 0, n)
	}
	if cap(b.kept) < len(data) {
		// The arena never holds more than the body.
		b.kept = make([]byte, 0, len(data))
	}
	f.Lines = b.scan()
	if r != nil {
		r.LastLine = f.Lines
		r.flush()
	}
	b.finish()
	b.file, b.report = nil, nil // the pool must not keep them alive
	builders.Put(b)
	f.meter.Add(f.memoryBytes())
	return f
}

// builders pools builders: a parse copies its records out, freeing them.
var builders = sync.Pool{New: func() any { return new(builder) }}

type builder struct {
	file    *File
	lenient bool
	quick   bool
	report  *Report // nil unless Google's report is recorded (ParseReport)
	rules   []ruleRec
	agents  []agentRec
	groups  []groupRec
	sitemaps,
	others []dirRec
	named  []namedAgent // per user-agent line with a token
	global []int32
	kept   []byte // the arena
	names  names
	// closed is set by a rule, so that the next user-agent line starts a
	// group; sitemap and unknown lines leave it, as Google's parser does
	// and RFC 9309 section 2.2.4 requires.
	closed bool
	// ruleLine is the line of the last rule recorded (ruleGap).
	ruleLine uint32
}

type namedAgent struct{ name, group int32 }

// builderKeepBytes bounds each slice a pooled builder keeps, so that a
// body read past the limit does not pin its scratch. A body of
// DefaultMaxBytes fits (its arena is at most the body, its rule records a
// quarter of it), so that a crawler parsing large files reuses the
// scratch instead of allocating a body's size for each.
const builderKeepBytes = 1 << 20

var _ [builderKeepBytes - DefaultMaxBytes]struct{}

func (b *builder) reset(f *File) {
	b.names.reuse()
	*b = builder{
		names: b.names,
		file:  f, lenient: !f.dialect.ColonRequired,
		rules: reuse(b.rules), agents: reuse(b.agents), groups: reuse(b.groups),
		sitemaps: reuse(b.sitemaps), others: reuse(b.others), named: reuse(b.named), global: reuse(b.global),
		kept: reuse(b.kept),
	}
}

func reuse[T any](s []T) []T {
	if cap(s)*alloc.SizeOf[T]() > builderKeepBytes {
		return nil
	}
	return s[:0]
}

// finish copies the records and the arena into the file at exact size.
func (b *builder) finish() {
	f := b.file
	f.rules = exact(b.rules)
	f.agents = exact(b.agents)
	f.groups = exact(b.groups)
	f.others = dirRecs(b.others, b.sitemaps)
	f.global = globalGroups(b.global)
	f.body = string(b.kept)
	f.names = b.names.finish(f, b.named)
}

// singleGroups holds the one-group lists of the first groups: most files
// have one '*' group among their first, whose File.global is taken from
// here instead of allocated.
var singleGroups = func() (s [64]int32) {
	for i := range s {
		s[i] = int32(i)
	}
	return s
}()

func globalGroups(groups []int32) []int32 {
	if len(groups) == 1 && int(groups[0]) < len(singleGroups) {
		g := groups[0]
		return singleGroups[g : g+1 : g+1]
	}
	return exact(groups)
}

// isShared reports whether groups is from singleGroups, which no file pays for.
func isShared(groups []int32) bool {
	return len(groups) == 1 && int(groups[0]) < len(singleGroups) && &groups[0] == &singleGroups[groups[0]]
}

func dirRecs(others, sitemaps []dirRec) []dirRec {
	if len(others)+len(sitemaps) == 0 {
		return nil
	}
	all := make([]dirRec, len(others)+len(sitemaps))
	copy(all[copy(all, others):], sitemaps)
	return all[:len(others)]
}

func (f *File) sitemapRecs() []dirRec { return f.others[len(f.others):cap(f.others)] }

func (b *builder) keep(from, to int) uint32 {
	at := len(b.kept)
	b.kept = append(b.kept, b.file.body[from:to]...)
	return uint32(at)
}

func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// scan records every directive of the body and returns the number of
// lines. It is Scan inlined: the same scanner, the rules of SplitKeyValue
// and the table of ClassifyKey.
func (b *builder) scan() int {
	body := b.file.body
	sc := newScanner(body)
	hash, colon := newFinder('#'), newFinder(':')
	for {
		if b.quick {
			if b.quickLines(&sc); sc.done() {
				return sc.num
			}
		}
		start, end, num := sc.next()
		if b.report != nil {
			b.reported(num, start, end, sc.textEnd(start, end))
		} else {
			textEnd := min(sc.textEnd(start, end), hash.next(body, start))
			if sep := colon.next(body, start); sep < textEnd {
				b.directive(num, start, sep, textEnd)
			} else if b.lenient {
				b.colonless(num, start, textEnd)
			}
		}
		if sc.done() {
			return num
		}
	}
}

// reported reads the line body[start:end], whose text ends at textEnd,
// as the general path does, and records Google's report of it: the line
// is split once, as Google splits it, and the parser takes the directive
// when its dialect reads the line alike.
func (b *builder) reported(num, start, end, textEnd int) {
	body := b.file.body
	bd, m := splitBounds(body[start:textEnd], true)
	bd = bd.shift(start)
	b.report.line(body, num, start, end, bd, m)
	if m.HasDirective && (b.lenient || !m.MissingColon) {
		b.add(num, bd.ks, bd.ke, bd.vs, bd.ve)
	}
}

func (b *builder) directive(num, start, sep, end int) {
	body := b.file.body
	ks, ke := trimBounds(body, start, sep)
	if ks == ke {
		return
	}
	vs, ve := trimBounds(body, sep+1, end)
	b.add(num, ks, ke, vs, ve)
}

// colonless reads a line without a colon as Google does (splitBounds).
func (b *builder) colonless(num, start, end int) {
	bd, m := splitBounds(b.file.body[start:end], true)
	if !m.HasDirective {
		return
	}
	bd = bd.shift(start)
	b.add(num, bd.ks, bd.ke, bd.vs, bd.ve)
}

func (b *builder) add(num, ks, ke, vs, ve int) {
	body := b.file.body
	kind := kindOf(body[ks:ke], b.file.dialect.ExactKeys)
	// No default: a new kind must be named here (TestEveryKindIsRecorded).
	switch kind {
	case UserAgent:
		b.userAgent(num, vs, ve)
	case Allow, Disallow:
		b.rule(num, kind == Allow, vs, ve, true)
	case Sitemap, Unknown:
		b.other(num, kind == Sitemap, ks, ke, vs, ve)
	}
}

func (b *builder) userAgent(num, vs, ve int) {
	f := b.file
	if len(b.groups) == 0 || b.closed {
		b.groups = append(b.groups, groupRec{agent: int32(len(b.agents)), rule: int32(len(b.rules)), other: int32(len(b.others))})
		b.closed = false
	}
	gi := int32(len(b.groups) - 1)
	value := f.body[vs:ve]
	a := agentRec{line: uint32(num), off: b.keep(vs, ve), n: uint32(ve - vs), global: isGlobalAgent(value, f.dialect.ExactGlobalAgent)}
	if a.global {
		b.global = appendGroup(b.global, gi)
	} else {
		token := ExtractAgent(value)
		a.tok = uint16(len(token))
		b.named = append(b.named, namedAgent{name: b.names.lookup(token, int32(len(b.agents))), group: gi})
	}
	b.agents = append(b.agents, a)
}

// rule records an allow or disallow line; mayEscape is false when the
// caller saw the value holds neither '%' nor a byte outside ASCII.
func (b *builder) rule(num int, allow bool, vs, ve int, mayEscape bool) {
	b.closed = true
	f := b.file
	if len(b.groups) == 0 {
		return // a rule before any user-agent line belongs to no group
	}
	escaped := mayEscape && needsEscape(f.body[vs:ve])
	if escaped {
		rare := f.rareRecs()
		if rare.escaped == nil {
			rare.escaped = map[int32]string{}
		}
		rare.escaped[int32(len(b.rules))] = EscapePattern(f.body[vs:ve])
	}
	b.rules = append(b.rules, newRuleRec(b.keep(vs, ve), ve-vs, allow, escaped, b.ruleGap(uint32(num))))
}

// ruleGap returns the gap to record for the next rule, at line num,
// keeping the line in farLines when the gap is too wide for the record.
func (b *builder) ruleGap(num uint32) uint32 {
	gap := num - b.ruleLine
	b.ruleLine = num
	if gap < farGap {
		return gap
	}
	rare := b.file.rareRecs()
	if rare.farLines == nil {
		rare.farLines = map[int32]uint32{}
	}
	rare.farLines[int32(len(b.rules))] = num
	return farGap
}

// other records a sitemap or unknown line. An unknown line joins the
// last group's extras, delimited by groupRec.other.
func (b *builder) other(num int, sitemap bool, ks, ke, vs, ve int) {
	d := dirRec{line: uint32(num), keyOff: b.keep(ks, ke), keyN: uint16(ke - ks), off: b.keep(vs, ve), n: uint16(ve - vs)}
	if sitemap {
		b.sitemaps = append(b.sitemaps, d)
	} else {
		b.others = append(b.others, d)
	}
}

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
// and returns the number of lines, skipping others as Google and RFC 9309
// section 2.2 do. body must already be cut to the size limit.
func Scan(body string, mode Mode, fn func(Token)) (lines int) {
	d := mode.Dialect()
	Lines(body, func(l Line) {
		lines = l.Num
		key, value, ok := SplitKeyValue(l.Text, !d.ColonRequired)
		if !ok {
			return
		}
		kind, _, _ := classifyKey(key, d.ExactKeys)
		fn(Token{Line: l.Num, Kind: kind, Key: key, Value: value})
	})
	return lines
}
