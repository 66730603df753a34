package usage

import (
	"net/http"
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
