package compile

import (
	"slices"
	"strings"
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
	// Meter, when set, counts the memory the File holds, and later what
	// its view and the rule sets compiled from it add.
	Meter *automaton.Meter
}

// Dialect returns the dialect of the file's mode, in which its rules are
// read and matched.
func (f *File) Dialect() Dialect { return f.dialect }

// BodyLimit returns how many bytes of a body are read: MaxBytes, or
// DefaultMaxBytes when it is zero; negative for no limit. It is the one
// place that applies the default, for package robots and package fetch
// too.
func (o Options) BodyLimit() int {
	if o.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// File is a parsed robots.txt.
//
// Parsing keeps, for each directive line, a record of a few integers that
// locate its value in one arena: a copy of just the bytes the records
// name (values, and the keys of lines kept as directives), not of the
// whole body, whose comments, blank lines and keys of rules are dropped.
// Records and arena are allocated once each, at their exact size; the
// builder's growing slices come from a pool. No string is built and no
// pattern escaped unless it needs it. The groups, sitemaps and other lines
// as values of the exported types (Group, Rule, Directive) are built from
// the records the first time one of Groups, Sitemaps or Others is called,
// and kept; resolving a crawler's groups and checking URLs need none of
// them.
//
// A cache may hold a million files: the File itself is kept small by
// keeping what most files lack behind pointers, nil when they lack it: the index of named agents, the escaped patterns and the far
// lines (rare).
type File struct {
	Mode      Mode
	dialect   Dialect // Mode's, read by every step after parsing
	Truncated bool    // the body was longer than Options.MaxBytes
	Lines     int     // number of lines read, the last one included

	body   string     // the arena; while parsing, the body itself
	rules  []ruleRec  // every rule of every group, in file order
	agents []agentRec // every user-agent line, in file order
	groups []groupRec // each group's first user-agent line, rule and other line
	// others are the unknown lines, in file order; the sitemap lines
	// follow them in its spare capacity (sitemapRecs), which saves the
	// File a slice header. Nothing appends to it.
	others []dirRec
	rare   *rareRecs // nil when no rule needs one

	// names holds the groups that name each product token, nil when no
	// group names one; global lists the groups that name '*'.
	names  *names
	global []int32

	views atomic.Pointer[views] // nil until Groups, Sitemaps, Others or a Rule is asked for
	meter *automaton.Meter
}

// rareRecs are what few files' rules need: the patterns that differ from
// their values, and the lines of rules far from the rule before them.
type rareRecs struct {
	escaped  map[int32]string
	farLines map[int32]uint32 // the line of each rule farGap or more lines after the rule before it
}

// rareRecs returns f.rare, making it on first use while parsing.
func (f *File) rareRecs() *rareRecs {
	if f.rare == nil {
		f.rare = &rareRecs{}
	}
	return f.rare
}

// ruleRec locates a rule: its value is body[off:off+size()]. Its bits
// hold, from the lowest: ruleAllowBit, set for an allow; ruleEscapedBit,
// set when the pattern differs from the value (it had bytes to escape) and
// is in File.escaped; from ruleSizeShift, ruleSizeBits of the value's
// size; from ruleGapShift to the top, the gap: the lines from the previous
// rule's line (from line 0 for the first rule), or farGap when that is
// farGap or more and File.farLines holds the line. newRuleRec is the one
// place that packs them. A record is 8 bytes: a file holds one per rule,
// and a parse allocates them all.
type ruleRec struct {
	off, bits uint32
}

// The layout of ruleRec.bits.
const (
	ruleAllowBit   = 1 << 0
	ruleEscapedBit = 1 << 1
	ruleSizeShift  = 2
	// ruleSizeBits is the width of a rule's value size. A value lies
	// within one line, which is read up to MaxLineBytes.
	ruleSizeBits = 15
	ruleSizeMask = 1<<ruleSizeBits - 1
	// ruleGapShift is where the gap starts; farGap is its largest value,
	// which sends the reader to File.farLines.
	ruleGapShift = ruleSizeShift + ruleSizeBits
	farGap       = 1<<(32-ruleGapShift) - 1
)

// A value of MaxLineBytes must fit ruleSizeBits (this fails to compile
// otherwise).
var _ [ruleSizeMask - MaxLineBytes]struct{}

// newRuleRec packs a rule's record: its value at off, of size bytes (at
// most MaxLineBytes), and its gap (at most farGap).
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
// Key and value lie within one line, read up to MaxLineBytes, so that a
// uint16 holds their sizes and a record is 16 bytes.
type dirRec struct {
	line, keyOff, off uint32
	keyN, n           uint16
}

// A size of MaxLineBytes must fit dirRec's (this fails to compile
// otherwise).
var _ [1<<16 - 1 - MaxLineBytes]struct{}

// Group is a run of user-agent lines and the rules that follow them, as
// File.Groups (and robots.Robots.Groups) returns it. Like everything a
// File returns, a Group and the slices it holds are shared and must not be
// modified.
type Group struct {
	// Agents are the group's user-agent lines, in file order; a group has
	// at least one.
	Agents []AgentLine
	// Rules are the group's allow and disallow lines, in file order.
	Rules []Rule
	// Extras are the directives not interpreted here (crawl-delay,
	// request-rate, ...) that stand after the group's first user-agent
	// line and before the next group. They are also in File.Others and
	// change no verdict.
	Extras []Directive
}

// AgentLine is one user-agent line of a group.
type AgentLine struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Value is the value as written, trimmed of white space.
	Value string
	// Token is the product token a crawler's agent is compared with: the
	// value's leading run of letters, '-' and '_' (ExtractAgent); "" when
	// Global.
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
	// Pattern is what is matched against a URL's path: Value with bytes
	// outside ASCII percent-encoded and the hex digits of "%xx" in upper
	// case (EscapePattern). An empty Pattern decides no URL.
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

// parse is Parse, with the quick path (quickline.go) on or off: off, every
// line takes the general path, which the tests compare it with.
func parse(data []byte, opts Options, quick bool) *File {
	data, truncated := truncate(data, opts.BodyLimit())
	f := &File{Mode: opts.Mode, dialect: opts.Mode.Dialect(), Truncated: truncated, meter: opts.Meter}
	// The body is read in place, as a string that shares data: sound
	// because data is read during this call only and nothing keeps the
	// string (finish replaces it with the arena).
	f.body = bytestr.String(data)
	b := builders.Get().(*builder)
	b.reset(f)
	b.quick = quick
	if n := len(data) / 32; cap(b.rules) < n {
		// A long body: reserve what its lines could hold, rather than grow
		// by copying; a rule line is rarely shorter than 32 bytes.
		b.rules = make([]ruleRec, 0, n)
	}
	if cap(b.kept) < len(data) {
		// The arena never holds more than the body: reserve that once,
		// and a parse allocates in proportion to its body.
		b.kept = make([]byte, 0, len(data))
	}
	f.Lines = b.scan()
	b.finish()
	b.file = nil // the pool must not keep the file alive
	builders.Put(b)
	f.meter.Add(f.memoryBytes())
	return f
}

// builders pools the builders' growing slices: a parse copies its records
// out at their exact size, so the slices are free to serve the next one.
var builders = sync.Pool{New: func() any { return new(builder) }}

// builder reads the body line by line and records its directives.
type builder struct {
	file    *File
	lenient bool
	quick   bool // lines of the commonest shape are read by quickLine
	rules   []ruleRec
	agents  []agentRec
	groups  []groupRec
	sitemaps,
	others []dirRec
	named  []namedAgent // per user-agent line with a token: its name and group
	global []int32      // the groups that name '*' (File.global)
	kept   []byte       // the arena: the bytes the records name, one after another
	names  names        // the index of tokens, as lines add to it
	// closed is set by an allow or disallow line, so that the next
	// user-agent line starts a new group. Sitemap and unknown lines leave
	// it alone: they neither end a run of user-agent lines nor a group, as
	// in Google's parser and as RFC 9309 section 2.2.4 requires ("MUST NOT
	// interfere").
	closed bool
	// ruleLine is the line of the last rule recorded (ruleGap).
	ruleLine uint32
}

// namedAgent is a user-agent line naming a token: the name's index in
// File.names and the group.
type namedAgent struct{ name, group int32 }

// builderKeepBytes bounds the memory of each slice a pooled builder
// keeps, so that one huge file does not pin its scratch for ever: 64 KiB,
// about 5,000 rules, or the values of a file of a few hundred kilobytes.
const builderKeepBytes = 64 << 10

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

// reuse empties s, or drops it when it holds more than builderKeepBytes.
func reuse[T any](s []T) []T {
	if cap(s)*alloc.SizeOf[T]() > builderKeepBytes {
		return nil
	}
	return s[:0]
}

// finish copies what the builder recorded into the file at its exact
// size: the records, and the arena of the bytes they name.
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

// singleGroups holds the lists of one group of the first few: most files
// have one '*' group, among their first, whose list (File.global) is
// taken from here instead of allocated.
var singleGroups = func() (s [64]int32) {
	for i := range s {
		s[i] = int32(i)
	}
	return s
}()

// globalGroups returns a copy of groups at its exact size, or the same
// list from singleGroups when it is one group found there.
func globalGroups(groups []int32) []int32 {
	if len(groups) == 1 && int(groups[0]) < len(singleGroups) {
		g := groups[0]
		return singleGroups[g : g+1 : g+1]
	}
	return exact(groups)
}

// isShared reports whether groups is a list from singleGroups, which no
// file pays for.
func isShared(groups []int32) bool {
	return len(groups) == 1 && int(groups[0]) < len(singleGroups) && &groups[0] == &singleGroups[groups[0]]
}

// dirRecs returns the unknown lines' records, with the sitemap lines'
// after them in its capacity (File.others), at their exact size; nil when
// there are neither.
func dirRecs(others, sitemaps []dirRec) []dirRec {
	if len(others)+len(sitemaps) == 0 {
		return nil
	}
	all := make([]dirRec, len(others)+len(sitemaps))
	copy(all[copy(all, others):], sitemaps)
	return all[:len(others)]
}

// sitemapRecs returns the sitemap lines' records, in file order.
func (f *File) sitemapRecs() []dirRec { return f.others[len(f.others):cap(f.others)] }

// keep copies body[from:to] to the end of the arena and returns its
// offset there.
func (b *builder) keep(from, to int) uint32 {
	at := len(b.kept)
	b.kept = append(b.kept, b.file.body[from:to]...)
	return uint32(at)
}

// exact returns a copy of s at its length (rounded up to the allocator's
// size class, which costs nothing more), or nil when it is empty.
// slices.Clone does not clear the memory it is about to copy over.
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// scan records every directive of the body and returns the number of
// lines. It is Scan with the steps inlined: the lines are found by the
// same scanner, split by the same rules as SplitKeyValue, and keys
// classified by the same table as ClassifyKey.
func (b *builder) scan() int {
	body := b.file.body
	sc := newScanner(body)
	hash, colon := newFinder('#'), newFinder(':')
	for {
		if b.quick && b.quickLine(&sc) {
			if sc.done() {
				return sc.num
			}
			continue
		}
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

// rule records an allow or disallow line with value body[vs:ve];
// mayEscape is false when the caller saw that the value holds neither '%'
// nor a byte outside ASCII, so that it cannot need escaping.
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

// ruleGap returns the gap to record for the next rule, at line num, and
// records the line in File.farLines when the gap is too wide for the
// record.
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
// last group's extras, which group.other and the next group's delimit.
func (b *builder) other(num int, sitemap bool, ks, ke, vs, ve int) {
	d := dirRec{line: uint32(num), keyOff: b.keep(ks, ke), keyN: uint16(ke - ks), off: b.keep(vs, ve), n: uint16(ve - vs)}
	if sitemap {
		b.sitemaps = append(b.sitemaps, d)
	} else {
		b.others = append(b.others, d)
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
