package usage

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseContentSignal(t *testing.T) {
	for _, tc := range []struct {
		in        string
		values    [numSignals]Value
		other     []Entry
		malformed int
	}{
		{"", [numSignals]Value{}, nil, 0},
		{"search=yes, ai-input=no, ai-train=no", [numSignals]Value{Yes, No, No}, nil, 0},
		{" search = yes ,ai-train=no, ", [numSignals]Value{Yes, Unknown, No}, nil, 0},
		{"ai-train=no, ai-train=yes", [numSignals]Value{Unknown, Unknown, No}, nil, 0},
		{"use=reference, ai-retrieval", [numSignals]Value{}, []Entry{{"ai-retrieval", ""}}, 0},
		{"use=partial, USE = Full", [numSignals]Value{}, nil, 1},
		{"=yes, search=y", [numSignals]Value{}, nil, 2},
		{"search=yes\r\nai-train=no", [numSignals]Value{Yes}, nil, 0},
	} {
		s := ParseContentSignal(tc.in)
		if s.Values != tc.values || s.Malformed != tc.malformed || len(s.Other) != len(tc.other) {
			t.Errorf("ParseContentSignal(%q) = %+v, want values %v, other %v, malformed %d", tc.in, s, tc.values, tc.other, tc.malformed)
			continue
		}
		for i := range tc.other {
			if s.Other[i] != tc.other[i] {
				t.Errorf("ParseContentSignal(%q).Other[%d] = %+v, want %+v", tc.in, i, s.Other[i], tc.other[i])
			}
		}
	}
}

func TestSignalLimits(t *testing.T) {
	entries := strings.Repeat("x=1, ", MaxSignalEntries-1) + "ai-train=no"
	if s := ParseContentSignal(entries); s.Get(SignalAITrain) != No {
		t.Errorf("the entry at MaxSignalEntries was not read: %+v", s.Values)
	}
	if s := ParseContentSignal(entries + ", search=yes, ai-input=no"); s.Get(SignalSearch) != Unknown || s.Get(SignalAIInput) != Unknown || s.Malformed != 2+MaxSignalEntries-1-MaxSignalOther {
		t.Errorf("entries past MaxSignalEntries: values %v, malformed %d", s.Values, s.Malformed)
	}
	var b strings.Builder
	for i := range MaxSignalOther + 3 {
		b.WriteString("k" + strconv.Itoa(i) + "=v,")
	}
	if s := ParseContentSignal(b.String()); len(s.Other) != MaxSignalOther || s.Malformed != 3 {
		t.Errorf("MaxSignalOther: kept %d, malformed %d; want %d and 3", len(s.Other), s.Malformed, MaxSignalOther)
	}
}

func TestCombineSignals(t *testing.T) {
	a := ParseContentSignal("search=yes, use=full, ai-retrieval=no")
	b := ParseContentSignal("search=no, ai-train=yes, ai-train=maybe, use=reference")
	c := CombineSignals(a, b)
	if c.Values != [numSignals]Value{No, Unknown, Yes} || c.Use != LevelReference || len(c.Other) != 1 || c.Malformed != 1 {
		t.Errorf("CombineSignals = %+v", c)
	}
	if len(a.Other) != 1 || a.Use != LevelFull {
		t.Errorf("CombineSignals changed its argument: %+v", a)
	}
	if c := CombineSignals(ParseContentSignal("search=yes"), b); c.Use != LevelReference {
		t.Errorf("a line without use took the other's level away: %+v", c)
	}
}
