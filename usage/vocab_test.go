package usage

import (
	"strings"
	"testing"
)

// TestVocabulary checks the table: every label is a dictionary key made
// of the characters vocab-08 section 6.1 allows new labels, labels are
// unique, and a statement of every category reads back.
func TestVocabulary(t *testing.T) {
	seen := map[string]bool{}
	var all Preference
	for _, c := range Categories() {
		term := Vocabulary[c]
		if term.Label == "" || term.Name == "" || term.Drafts == "" || term.Section == "" {
			t.Errorf("category %d: incomplete term %+v", c, term)
		}
		for i := 0; i < len(term.Label); i++ {
			if !(isLower(term.Label[i]) || isDigit(term.Label[i]) || term.Label[i] == '_' || term.Label[i] == '-' || term.Label[i] == '.' || term.Label[i] == '*') {
				t.Errorf("label %q: byte %q is not allowed", term.Label, term.Label[i])
			}
		}
		if seen[term.Label] {
			t.Errorf("label %q twice", term.Label)
		}
		seen[term.Label] = true
		if got, ok := CategoryOf(term.Label); !ok || got != c {
			t.Errorf("CategoryOf(%q) = %v, %v", term.Label, got, ok)
		}
		all[c] = Value(1 + int(c)%2)
	}
	if got, ok := ParsePreference(all.String()); !ok || got != all {
		t.Errorf("ParsePreference(%q) = %v, %v; want %v", all.String(), got, ok, all)
	}
	if _, ok := CategoryOf("Train-AI"); ok {
		t.Error("labels are case-sensitive, yet Train-AI was found")
	}
	if Category(numCategories).Label() != "" || (Preference{}).Get(numCategories) != Unknown {
		t.Error("a category past the table has a label or a value")
	}
}

// TestRetiredLabels checks that no retired label is a current one, and
// that a statement writing one states nothing.
func TestRetiredLabels(t *testing.T) {
	for label, drafts := range RetiredLabels {
		if _, ok := CategoryOf(label); ok {
			t.Errorf("retired label %q is in the vocabulary", label)
		}
		if drafts == "" {
			t.Errorf("retired label %q names no draft", label)
		}
		if p, ok := ParsePreference(label + "=n"); !ok || p != (Preference{}) {
			t.Errorf("ParsePreference(%q) = %v, %v; want nothing stated", label+"=n", p, ok)
		}
	}
}

// TestVocabulary08 checks the table against vocab-08: its Table 1 (section
// 6.1) in order, and Search alone overriding the others (section 4.3
// paragraph 7).
func TestVocabulary08(t *testing.T) {
	var labels []string
	for _, c := range Categories() {
		labels = append(labels, c.Label())
		if Vocabulary[c].Overrides != (c == Search) {
			t.Errorf("%s: Overrides = %v", c, Vocabulary[c].Overrides)
		}
	}
	if got := strings.Join(labels, " "); got != "train-ai ai-use search" {
		t.Errorf("labels %q, want vocab-08's train-ai ai-use search", got)
	}
	if _, retired := RetiredLabels["ai-use"]; retired {
		t.Error("ai-use is a label of vocab-08, yet listed as retired")
	}
}
