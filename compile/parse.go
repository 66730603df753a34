package compile

import "bytes"

// Options control parsing.
type Options struct {
	// Mode selects Google's lenient reading (the default) or strict RFC 9309.
	Mode Mode
	// MaxBytes is how much of the body is read; the rest is ignored. Zero
	// means DefaultMaxBytes; a negative value means no limit.
	MaxBytes int
}

func (o Options) maxBytes() int {
	if o.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// File is a parsed robots.txt. Its strings are substrings of one copy of
// the body, so a File keeps that copy alive and nothing else.
type File struct {
	Mode      Mode
	Groups    []Group
	Sitemaps  []Directive // sitemap lines, in file order, wherever they stand
	Others    []Directive // unknown directives, in file order
	Lines     int         // number of lines read, the last one included
	Truncated bool        // the body was longer than Options.MaxBytes

	// byAgent maps a folded product token to the groups that name it, each
	// group once, in file order. global lists the groups that name '*'.
	byAgent map[string][]int32
	global  []int32
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
	f := &File{Mode: opts.Mode, Truncated: truncated, byAgent: map[string][]int32{}}
	b := builder{file: f, rules: make([]Rule, 0, ruleCapacity(data))}
	f.Lines = Scan(string(data), opts.Mode, b.directive)
	b.finish()
	return f
}

// ruleCapacity guesses how many rules data holds, so that the rules of all
// groups share one allocation: at most one per colon (a rule line without
// one is rare) and per line, and no more than one per 16 bytes, so that a
// body of junk does not reserve more memory than it is long. A file with
// more rules grows the slice as usual.
func ruleCapacity(data []byte) int {
	colons := bytes.Count(data, []byte{':'})
	lines := bytes.Count(data, []byte{'\n'})
	return min(colons, lines, len(data)/16) + 1
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

// builder groups directives as they arrive.
type builder struct {
	file *File
	// rules and agents hold the rules and user-agent lines of all groups
	// in file order, so that they take a few allocations rather than a
	// few per group; ruleLo and agentLo index each group's first one.
	// Because a line always joins the last group, each group's lines are
	// contiguous; finish hands each group its part.
	rules   []Rule
	agents  []AgentLine
	ruleLo  []int32
	agentLo []int32
	// closed is set by an allow or disallow line, so that the next
	// user-agent line starts a new group. Sitemap and unknown lines leave
	// it alone: they neither end a run of user-agent lines nor a group, as
	// in Google's parser and as RFC 9309 section 2.2.4 requires ("MUST NOT
	// interfere").
	closed bool
}

func (b *builder) directive(t Token) {
	switch t.Kind {
	case UserAgent:
		b.userAgent(t.Line, t.Value)
	case Allow, Disallow:
		b.rule(t.Line, t.Kind == Allow, t.Value)
	case Sitemap:
		b.file.Sitemaps = append(b.file.Sitemaps, Directive{t.Line, t.Key, t.Value})
	default:
		d := Directive{t.Line, t.Key, t.Value}
		b.file.Others = append(b.file.Others, d)
		if n := len(b.file.Groups); n > 0 {
			b.file.Groups[n-1].Extras = append(b.file.Groups[n-1].Extras, d)
		}
	}
}

func (b *builder) userAgent(line int, value string) {
	f := b.file
	if len(f.Groups) == 0 || b.closed {
		f.Groups = append(f.Groups, Group{})
		b.ruleLo = append(b.ruleLo, int32(len(b.rules)))
		b.agentLo = append(b.agentLo, int32(len(b.agents)))
		b.closed = false
	}
	gi := int32(len(f.Groups) - 1)
	a := AgentLine{Line: line, Value: value, Global: IsGlobalAgent(value, f.Mode)}
	if a.Global {
		f.global = appendGroup(f.global, gi)
	} else {
		a.Token = ExtractAgent(value)
		key := FoldAgent(a.Token)
		f.byAgent[key] = appendGroup(f.byAgent[key], gi)
	}
	b.agents = append(b.agents, a)
}

// appendGroup appends gi unless it is already the last entry: a group that
// names the same agent twice is still merged once.
func appendGroup(list []int32, gi int32) []int32 {
	if n := len(list); n > 0 && list[n-1] == gi {
		return list
	}
	return append(list, gi)
}

func (b *builder) rule(line int, allow bool, value string) {
	b.closed = true
	f := b.file
	if len(f.Groups) == 0 {
		return // a rule before any user-agent line belongs to no group
	}
	b.rules = append(b.rules, Rule{Line: line, Allow: allow, Value: value, Pattern: EscapePattern(value)})
}

// finish hands each group its rules and user-agent lines. Each part is
// capped at its own length, so appending to one group's slice cannot
// write over the next group's.
func (b *builder) finish() {
	groups := b.file.Groups
	for i := range groups {
		rHi, aHi := int32(len(b.rules)), int32(len(b.agents))
		if i+1 < len(groups) {
			rHi, aHi = b.ruleLo[i+1], b.agentLo[i+1]
		}
		if b.ruleLo[i] < rHi {
			groups[i].Rules = b.rules[b.ruleLo[i]:rHi:rHi]
		}
		groups[i].Agents = b.agents[b.agentLo[i]:aHi:aHi]
	}
}
