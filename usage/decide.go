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
// the shorter ones. (The two bytes come first so that a Decision takes
// 16 bytes, and a Usage, which Agent.Usage returns by value, 88.)
type Decision struct {
	Value  Value
	Source Source
	Line   int
}

// Usage is what a group says about the use of one URL's content.
type Usage struct {
	// Allowed is the crawl verdict Decide was given. A URL that may not be
	// fetched has no preference: every Decision is then zero.
	Allowed bool
	// Categories are the Content-Usage decisions, by Category.
	Categories [numCategories]Decision
	// Signals are the Content-Signal decisions, by SignalKey.
	Signals [numSignals]Decision
}

// Category returns the decision for c.
func (u Usage) Category(c Category) Decision {
	if int(c) >= len(u.Categories) {
		return Decision{}
	}
	return u.Categories[c]
}

// Signal returns the decision for k.
func (u Usage) Signal(k SignalKey) Decision {
	if int(k) >= len(u.Signals) {
		return Decision{}
	}
	return u.Signals[k]
}

// Decide returns what rules and signals, a group's Content-Usage and
// Content-Signal lines, say about path, the URL's path and query escaped
// as the engine escapes it; allowed is the group's crawl verdict for it.
//
// For each category the rules with the longest matching pattern decide,
// by Combine when several share that pattern; the decision's line is the
// first line stating the winning value. Every signal line applies, by
// Combine. The order of rules and signals does not change the result.
func Decide(rules []Rule, signals []SignalLine, path string, allowed bool) Usage {
	u := Usage{Allowed: allowed}
	if !allowed {
		return u
	}
	longest := -1
	for _, r := range rules {
		if len(r.Pattern) >= longest && Match(r.Pattern, path) {
			if len(r.Pattern) > longest {
				longest = len(r.Pattern)
				u.Categories = [numCategories]Decision{}
			}
			for c, v := range r.Pref {
				u.Categories[c] = fold(u.Categories[c], v, r.Line, SourceContentUsage)
			}
		}
	}
	for _, s := range signals {
		for k, v := range s.Signal.Values {
			if v != Unknown { // a line silent about a use does not decide it
				u.Signals[k] = fold(u.Signals[k], v, s.Line, SourceContentSignal)
			}
		}
	}
	return u
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
		if Combine(u.Categories[c].Value, v) != u.Categories[c].Value {
			u.Categories[c] = Decision{Value: v, Source: SourceHeader}
		}
	}
	return u
}

// MayTrain answers whether the content may be used to train an AI model:
// the Content-Usage train-ai decision when it is Yes or No; else the
// Content-Signal ai-train decision when it is Yes or No; else Unknown. The
// Decision says which source decided. docs/usage.md gives the reasons for
// this order.
func (u Usage) MayTrain() Decision {
	if d := u.Categories[TrainAI]; d.Value != Unknown {
		return d
	}
	if d := u.Signals[SignalAITrain]; d.Value != Unknown {
		return d
	}
	return Decision{}
}
