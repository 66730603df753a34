package usage

// Rule is one Content-Usage line of a group, ready to match.
type Rule struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Pattern is the rule's path, escaped (EscapePath); "/" when the line
	// has none.
	Pattern string
	// Pref is the rule's statement of preference.
	Pref Preference
}

// SignalLine is one Content-Signal line that applies to a group: one of
// the group's own, or one standing before every group.
type SignalLine struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Signal is the line's value, read.
	Signal Signal
}

// Source names where a decision came from.
type Source uint8

// The sources of a decision.
const (
	SourceNone          Source = iota // nothing applies
	SourceContentUsage                // a robots.txt Content-Usage line
	SourceContentSignal               // a robots.txt Content-Signal line
	SourceHeader                      // the response's Content-Usage field
)

// String returns the source's name as it is written in files and fields.
func (s Source) String() string {
	switch s {
	case SourceContentUsage:
		return "Content-Usage"
	case SourceContentSignal:
		return "Content-Signal"
	case SourceHeader:
		return "Content-Usage header"
	}
	return "none"
}

// Decision is the value of one category or signal for a URL and the line
// that decided it. Line is 0 when no line applies or the value comes from
// a header. A Content-Usage decision may be Unknown with a Line: the
// longest matching rule states nothing about the category and so hides
// the shorter ones.
type Decision struct {
	Value  Value
	Source Source
	Line   int
}

// Usage is what a group says about the use of one URL's content: Category,
// Signal and Use give its decisions, For and MayUseAt the answers a
// crawler asks for. It is two words, which a call returns in
// registers: the decisions of the lines are kept once per pattern by the
// Set that decided them and shared, and those a response's field made
// (WithHeader) are two bits each. The zero Usage is a URL that may not be
// fetched. Compare Usages with Equal: == also compares where their
// decisions are kept.
type Usage struct {
	// Allowed is the crawl verdict Decide was given. A URL that may not be
	// fetched has no preference: every Decision is then zero.
	Allowed bool
	// header holds, two bits per category, the value a response's field
	// decided (WithHeader), or Unknown where it decided none.
	header uint32
	// lines are the decisions of the lines, shared and never modified;
	// nil when none decided anything.
	lines *decisions
}

// LevelDecision is the level a group's Content-Signal lines state for a
// URL and the first line that states it; zero when none states one.
type LevelDecision struct {
	Level  Level
	Source Source
	Line   int
}

// decisions is what the lines of a group decide for one URL.
type decisions struct {
	cats    [numCategories]Decision
	signals [numSignals]Decision
	use     LevelDecision
}

// Every category's header value fits Usage.header (this fails to compile
// otherwise).
var _ [32 - 2*numCategories]struct{}

// shared returns d as a Usage keeps it: nil when it decides nothing.
func shared(d decisions) *decisions {
	if d == (decisions{}) {
		return nil
	}
	return &d
}

// Category returns the decision for c.
func (u Usage) Category(c Category) Decision {
	if c >= numCategories {
		return Decision{}
	}
	if v := u.headerValue(c); v != Unknown {
		return Decision{Value: v, Source: SourceHeader}
	}
	if u.lines == nil {
		return Decision{}
	}
	return u.lines.cats[c]
}

// headerValue returns the value a response's field decided for c, or
// Unknown.
func (u Usage) headerValue(c Category) Value { return Value(u.header >> (2 * c) & 3) }

// Signal returns the decision for k.
func (u Usage) Signal(k SignalKey) Decision {
	if k >= numSignals || u.lines == nil {
		return Decision{}
	}
	return u.lines.signals[k]
}

// Use returns the level the Content-Signal lines state (Signal.Use),
// with the line that states it.
func (u Usage) Use() LevelDecision {
	if u.lines == nil {
		return LevelDecision{}
	}
	return u.lines.use
}

// MayUseAt answers "may I use this content at level l?" from the level
// the Content-Signal lines state (Level.Permits), with the line that
// states it: Unknown, with no line, when none states a level.
func (u Usage) MayUseAt(l Level) Decision {
	d := u.Use()
	v := d.Level.Permits(l)
	if v == Unknown {
		return Decision{}
	}
	return Decision{Value: v, Source: d.Source, Line: d.Line}
}

// Equal reports whether u and v hold the same verdict and decisions.
func (u Usage) Equal(v Usage) bool {
	if u.Allowed != v.Allowed || u.Use() != v.Use() {
		return false
	}
	for c := range numCategories {
		if u.Category(c) != v.Category(c) {
			return false
		}
	}
	for k := range numSignals {
		if u.Signal(k) != v.Signal(k) {
			return false
		}
	}
	return true
}

// Decided reports whether any line or field decided something: a
// decision with a Source.
func (u Usage) Decided() bool { return u.header != 0 || u.lines != nil }

// Decide returns what rules and signals, a group's Content-Usage and
// Content-Signal lines, say about path, the URL's path and query escaped
// as the engine escapes it; allowed is the group's crawl verdict for it.
//
// For each category the rules with the longest matching pattern decide,
// by Combine when several share that pattern; the decision's line is the
// first line stating the winning value. Every signal line applies, by
// Combine. The order of rules and signals does not change the result.
// Decide allocates the decisions it returns; a Set decides without.
func Decide(rules []Rule, signals []SignalLine, path string, allowed bool) Usage {
	if !allowed {
		return Usage{}
	}
	var d decisions
	longest := -1
	for _, r := range rules {
		if len(r.Pattern) >= longest && Match(r.Pattern, path) {
			if len(r.Pattern) > longest {
				longest = len(r.Pattern)
				d.cats = [numCategories]Decision{}
			}
			for c, v := range r.Pref {
				d.cats[c] = fold(d.cats[c], v, r.Line, SourceContentUsage)
			}
		}
	}
	for _, s := range signals {
		for k, v := range s.Signal.Values {
			if v != Unknown { // a line silent about a use does not decide it
				d.signals[k] = fold(d.signals[k], v, s.Line, SourceContentSignal)
			}
		}
		d.use = foldLevel(d.use, s.Signal.Use, s.Line)
	}
	return Usage{Allowed: true, lines: shared(d)}
}

// foldLevel adds the level l a Content-Signal line states to d: the
// combined level (CombineLevels), and the lowest line that states it. A
// line that states no level changes nothing.
func foldLevel(d LevelDecision, l Level, line int) LevelDecision {
	switch c := CombineLevels(d.Level, l); {
	case l == LevelNone || l >= numLevels:
	case d.Source == SourceNone || c != d.Level:
		return LevelDecision{Level: c, Source: SourceContentSignal, Line: line}
	case l == c && line < d.Line:
		d.Line = line
	}
	return d
}

// fold adds one more statement v from line into d: the combined value,
// and the lowest line that states it, so that file order does not matter.
func fold(d Decision, v Value, line int, src Source) Decision {
	switch c := Combine(d.Value, v); {
	case d.Source == SourceNone || c != d.Value:
		return Decision{Value: c, Line: line, Source: src}
	case v == c && line < d.Line:
		d.Line = line
	}
	return d
}

// WithHeader returns u with the preference of the response's Content-Usage
// field taken into account: both are statements about the same content,
// so they combine (Combine). A category the field changes is decided by
// SourceHeader, with no line. A URL that may not be fetched stays without
// preference.
func (u Usage) WithHeader(p Preference) Usage {
	if !u.Allowed {
		return u
	}
	for c, v := range p {
		cur := u.Category(Category(c)).Value
		if Combine(cur, v) != cur { // v is then Yes or No, never Unknown
			u.header = u.header&^(3<<(2*c)) | uint32(v)<<(2*c)
		}
	}
	return u
}
