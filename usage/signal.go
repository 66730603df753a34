package usage

import "strings"

// SignalKey is one of the uses Cloudflare's Content-Signal line names: an
// index into Signals.
type SignalKey uint8

// The uses of Cloudflare's Content Signals Policy.
const (
	SignalSearch SignalKey = iota
	SignalAIInput
	SignalAITrain
	numSignals
)

// SignalTerm describes one Content-Signal key.
type SignalTerm struct {
	// Key is the key as written in the line ("ai-train").
	Key string
	// Meaning sums up the use as the policy's comment block defines it.
	Meaning string
}

// Signals are the Content-Signal keys that take yes or no, by SignalKey;
// the use key (UseKey) takes a Level instead.
var Signals = [numSignals]SignalTerm{
	SignalSearch:  {"search", "building a search index and giving search results with links and short excerpts; not AI-written summaries"},
	SignalAIInput: {"ai-input", "feeding content to AI models at answer time (retrieval, grounding)"},
	SignalAITrain: {"ai-train", "training or fine-tuning AI models"},
}

// String returns the signal's key.
func (k SignalKey) String() string {
	if int(k) >= len(Signals) {
		return ""
	}
	return Signals[k].Key
}

// Entry is a Content-Signal entry whose key is neither in Signals nor
// UseKey ("ai-retrieval=no"), kept as written and given no meaning.
type Entry struct {
	Key, Value string
}

// Signal is one Content-Signal line read: a Value per SignalKey, the
// level of the use key, the entries with other keys, and how many entries
// were malformed.
type Signal struct {
	// Values holds yes (Yes), no (No) or nothing (Unknown) per key.
	Values [numSignals]Value
	// Use is the level the use key states, LevelNone when it states none.
	Use Level
	// Other are the entries with unknown keys, at most MaxSignalOther.
	Other []Entry
	// Malformed counts the entries that are not key=value with a known
	// key and a value it takes (yes or no; a level for use), those past
	// MaxSignalEntries, and the unknown entries past MaxSignalOther.
	Malformed int
}

// Get returns the signal's value for k.
func (s Signal) Get(k SignalKey) Value {
	if int(k) >= len(s.Values) {
		return Unknown
	}
	return s.Values[k]
}

// ParseContentSignal reads the value of a Content-Signal line:
// comma-separated key=value entries, "search=yes, ai-train=no,
// use=reference". The value ends at the first CR, LF or '#'. Keys, the
// values yes and no and the level names are compared without ASCII case,
// as robots.txt compares its keys; space around entries, keys and values
// is ignored. A key stated twice combines as two statements do (Combine,
// CombineLevels): the most restrictive wins. A known key with a value it
// does not take states nothing and counts as malformed: use=partial is no
// level, as ai-train=maybe is neither yes nor no. An absent key states
// nothing.
func ParseContentSignal(value string) Signal {
	if i := strings.IndexAny(value, "\r\n#"); i >= 0 {
		value = value[:i]
	}
	var s Signal
	for n := 0; value != ""; n++ {
		if n == MaxSignalEntries {
			s.Malformed += 1 + strings.Count(value, ",")
			break
		}
		var entry string
		entry, value, _ = strings.Cut(value, ",")
		s.add(strings.Trim(entry, " \t"))
	}
	return s
}

// add reads one entry into s.
func (s *Signal) add(entry string) {
	if entry == "" {
		return // "a=yes,,b=no" and a trailing comma state nothing
	}
	key, val, found := strings.Cut(entry, "=")
	key, val = strings.Trim(key, " \t"), strings.Trim(val, " \t")
	if strings.EqualFold(key, UseKey) {
		l, ok := ParseLevel(val)
		if !ok {
			s.Malformed++ // no place on the ordered scale: it states nothing
		}
		s.Use = CombineLevels(s.Use, l)
		return
	}
	for k, t := range Signals {
		if strings.EqualFold(key, t.Key) {
			v := signalValue(val)
			if !found || v == Unknown {
				s.Malformed++
			}
			s.Values[k] = Combine(s.Values[k], v)
			return
		}
	}
	if key == "" || len(s.Other) == MaxSignalOther {
		s.Malformed++
		return
	}
	s.Other = append(s.Other, Entry{Key: key, Value: val})
}

// signalValue maps yes and no; anything else is Unknown.
func signalValue(v string) Value {
	switch {
	case strings.EqualFold(v, "yes"):
		return Yes
	case strings.EqualFold(v, "no"):
		return No
	}
	return Unknown
}

// CombineSignals returns a and b taken together, use by use (Combine)
// and level by level (CombineLevels); the other entries and malformed
// counts are added up.
func CombineSignals(a, b Signal) Signal {
	for k := range a.Values {
		a.Values[k] = Combine(a.Values[k], b.Values[k])
	}
	a.Use = CombineLevels(a.Use, b.Use)
	a.Other = append(a.Other[:len(a.Other):len(a.Other)], b.Other...)
	a.Malformed += b.Malformed
	return a
}
