package usage

import "testing"

func TestParseContentUsage(t *testing.T) {
	for _, tc := range []struct {
		in   string
		path string
		pref string
		ok   bool
	}{
		{"\t train-ai=n \t", "/", "train-ai=n", true},
		{"/a\t\t search=y", "/a", "search=y", true},
		{"/*.pdf$ train-ai=y", "/*.pdf$", "train-ai=y", true},
		{"/é train-ai=y", "/é", "train-ai=y", true},
		{"/a train-ai=y extra", "/a", "", false},
		{"*.pdf train-ai=y", "/", "", false},
		{"train-ai=n\nsearch=y", "/", "train-ai=n", true},
		{"/a train-ai=n\r", "/a", "train-ai=n", true},
		{"#train-ai=n", "/", "", false},
	} {
		path, p, ok := ParseContentUsage(tc.in)
		if path != tc.path || p != pref(tc.pref) || ok != tc.ok {
			t.Errorf("ParseContentUsage(%q) = %q, %v, %v; want %q, %q, %v", tc.in, path, p, ok, tc.path, tc.pref, tc.ok)
		}
	}
}

func TestSplitContentUsage(t *testing.T) {
	for _, tc := range []struct {
		in, path, stmt string
		ok             bool
	}{
		{" train-ai=n ", "/", "train-ai=n", true},
		{"/a \t search=y, x", "/a", "search=y, x", true},
		{"/a", "/a", "", false},
		{"  ", "/", "", false},
		{"blog/ train-ai=n", "/", "blog/ train-ai=n", true},
		{"/a train-ai=n # note", "/a", "train-ai=n", true},
	} {
		path, stmt, ok := SplitContentUsage(tc.in)
		if path != tc.path || stmt != tc.stmt || ok != tc.ok {
			t.Errorf("SplitContentUsage(%q) = %q, %q, %v; want %q, %q, %v", tc.in, path, stmt, ok, tc.path, tc.stmt, tc.ok)
		}
	}
}
