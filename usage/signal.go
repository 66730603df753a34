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

// Signals is the Content-Signal vocabulary, by SignalKey.
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

// Entry is a Content-Signal entry whose key is not in Signals
// ("use=reference"), kept as written and given no meaning.
type Entry struct {
	Key, Value string
}

// Signal is one Content-Signal line read: a Value per SignalKey, the
// entries with other keys, and how many entries were malformed.
type Signal struct {
	// Values holds yes (Yes), no (No) or nothing (Unknown) per key.
	Values [numSignals]Value
	// Other are the entries with unknown keys, at most MaxSignalOther.
	Other []Entry
	// Malformed counts the entries that are not key=value with a known
	// key and a value of yes or no, those past MaxSignalEntries, and the
	// unknown entries past MaxSignalOther.
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
// comma-separated key=value entries, "search=yes, ai-train=no". The value
// ends at the first CR, LF or '#'. Keys and the values yes and no are
// compared without ASCII case, as robots.txt compares its keys; space
// around entries, keys and values is ignored. A key stated twice combines
// as two statements do (Combine): no wins. A known key with another value
// leaves the use Unknown and counts as malformed. An absent key states
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

// CombineSignals returns a and b taken together, use by use (Combine);
// the other entries and malformed counts are added up.
func CombineSignals(a, b Signal) Signal {
	for k := range a.Values {
		a.Values[k] = Combine(a.Values[k], b.Values[k])
	}
	a.Other = append(a.Other[:len(a.Other):len(a.Other)], b.Other...)
	a.Malformed += b.Malformed
	return a
}
