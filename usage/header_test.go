package usage

import (
	"net/http"
	"strings"
	"testing"
)

func TestParseHeader(t *testing.T) {
	h := http.Header{}
	if p, ok := ParseHeader(h.Values(HeaderName)...); !ok || p != (Preference{}) {
		t.Errorf("no field: %v, %v; want nothing stated, ok", p, ok)
	}
	h.Add(HeaderName, "train-ai=y, search=n")
	h.Add(HeaderName, "train-ai=n")
	if p, ok := ParseHeader(h.Values(HeaderName)...); !ok || p != pref("train-ai=n, search=n") {
		t.Errorf("two lines: %v, %v; want the later train-ai to win", p, ok)
	}
	h.Add(HeaderName, "Train-AI=y")
	if p, ok := ParseHeader(h.Values(HeaderName)...); ok || p != (Preference{}) {
		t.Errorf("a line that is not a dictionary: %v, %v; want nothing, not ok", p, ok)
	}
}

// TestParseHeaderLimit checks that lines whose join passes MaxValueBytes
// are refused as ParsePreference refuses the joined value, and that a join
// of exactly MaxValueBytes is read.
func TestParseHeaderLimit(t *testing.T) {
	fill := func(n int) string { return "train-ai=n" + strings.Repeat(" ", n-len("train-ai=n")) }
	half := (MaxValueBytes - len(", ")) / 2
	at := []string{fill(half), fill(MaxValueBytes - len(", ") - half)}
	if got := joinedLen(at); got != MaxValueBytes {
		t.Fatalf("joinedLen = %d, want %d", got, MaxValueBytes)
	}
	if p, ok := ParseHeader(at...); !ok || p != pref("train-ai=n") {
		t.Errorf("join of MaxValueBytes: %v, %v; want train-ai=n, ok", p, ok)
	}
	over := []string{at[0], at[1] + " "}
	if p, ok := ParseHeader(over...); ok || p != (Preference{}) {
		t.Errorf("join past MaxValueBytes: %v, %v; want nothing, not ok", p, ok)
	}
	if p, ok := ParsePreference(strings.Join(over, ", ")); ok || p != (Preference{}) {
		t.Errorf("ParsePreference of the join: %v, %v; want nothing, not ok", p, ok)
	}
}
