package usage

import "testing"

// decideOne decides path against one Content-Usage rule for "/" written
// stmt at line 1, and the Content-Signal values sigs at lines 2, 3, ...
func decideOne(stmt string, sigs ...string) Usage {
	var signals []SignalLine
	for i, s := range sigs {
		signals = append(signals, SignalLine{Line: 2 + i, Signal: ParseContentSignal(s)})
	}
	var rules []Rule
	if stmt != "" {
		rules = []Rule{{Line: 1, Pattern: "/", Pref: pref(stmt)}}
	}
	return Decide(rules, signals, "/page", true)
}

// TestForDraftExample answers each purpose for the statement of
// vocab-08 section 6: it allows AI Training (section 4.1), disallows
// Search (section 4.3), and says nothing of AI Use (section 4.2).
func TestForDraftExample(t *testing.T) {
	u := decideOne("train-ai=y, search=n")
	for _, tc := range []struct {
		p    Purpose
		want Decision
	}{
		{PurposeTrain, Decision{Yes, SourceContentUsage, 1}},
		{PurposeAIUse, Decision{}},
		{PurposeSearch, Decision{No, SourceContentUsage, 1}},
	} {
		if got := u.For(tc.p); got != tc.want {
			t.Errorf("For(%v) = %+v, want %+v", tc.p, got, tc.want)
		}
	}
	if u.MayTrain() != u.For(PurposeTrain) {
		t.Error("MayTrain is not For(PurposeTrain)")
	}
}

// TestSearchOverrides checks vocab-08 section 4.3 paragraph 7: for a use
// that falls into Search, the search preference alone decides, whatever
// the other categories say, although the search application trains and
// runs models (paragraph 6). The other purposes are not affected.
func TestSearchOverrides(t *testing.T) {
	for _, tc := range []struct {
		stmt                 string
		train, aiUse, search Value
	}{
		{"train-ai=n, ai-use=n, search=y", No, No, Yes},
		{"train-ai=y, ai-use=y, search=n", Yes, Yes, No},
		{"train-ai=n, ai-use=n", No, No, Unknown},
		{"search=y", Unknown, Unknown, Yes},
	} {
		u := decideOne(tc.stmt)
		got := [3]Value{u.For(PurposeTrain).Value, u.For(PurposeAIUse).Value, u.For(PurposeSearch).Value}
		if got != [3]Value{tc.train, tc.aiUse, tc.search} {
			t.Errorf("%q: train, ai-use, search = %v, want %v", tc.stmt, got, [3]Value{tc.train, tc.aiUse, tc.search})
		}
		if d := u.Preference(Search, TrainAI, AIUse); d != u.Category(Search) {
			t.Errorf("%q: Preference(search, train-ai, ai-use) = %+v, want search's %+v", tc.stmt, d, u.Category(Search))
		}
	}
}

// TestPreferenceCombines checks a use of several categories none of which
// overrides: they combine, the most restrictive winning, and the decision
// is that of the lowest line stating it.
func TestPreferenceCombines(t *testing.T) {
	rules := []Rule{
		{Line: 3, Pattern: "/", Pref: pref("train-ai=y, ai-use=n")},
		{Line: 2, Pattern: "/", Pref: pref("ai-use=n")},
	}
	u := Decide(rules, nil, "/", true)
	if d := u.Preference(TrainAI, AIUse); d != (Decision{No, SourceContentUsage, 2}) {
		t.Errorf("Preference(train-ai, ai-use) = %+v", d)
	}
	if d := u.Preference(TrainAI); d != (Decision{Yes, SourceContentUsage, 3}) {
		t.Errorf("Preference(train-ai) = %+v", d)
	}
	if d := u.Preference(); d != (Decision{}) {
		t.Errorf("Preference() = %+v", d)
	}
	if d := u.Preference(numCategories, TrainAI); d != u.Category(TrainAI) {
		t.Errorf("an unknown category changed the answer: %+v", d)
	}
	// The field's Search overrides the lines' train-ai too.
	h := u.WithHeader(pref("search=y"))
	if d := h.Preference(TrainAI, Search); d != (Decision{Value: Yes, Source: SourceHeader}) {
		t.Errorf("Preference(train-ai, search) with the field's search=y = %+v", d)
	}
}

// TestForFallsBackToSignal checks the order of For: the Content-Usage
// answer when it is yes or no, else the Content-Signal key of the
// purpose, else unknown.
func TestForFallsBackToSignal(t *testing.T) {
	u := decideOne("", "search=yes, ai-input=no, ai-train=no")
	for p, want := range map[Purpose]Decision{
		PurposeTrain:  {No, SourceContentSignal, 2},
		PurposeAIUse:  {No, SourceContentSignal, 2},
		PurposeSearch: {Yes, SourceContentSignal, 2},
	} {
		if got := u.For(p); got != want {
			t.Errorf("signals only: For(%v) = %+v, want %+v", p, got, want)
		}
	}
	u = decideOne("train-ai=y, search=n", "search=yes, ai-input=no, ai-train=no")
	for p, want := range map[Purpose]Decision{
		PurposeTrain:  {Yes, SourceContentUsage, 1},
		PurposeAIUse:  {No, SourceContentSignal, 2},
		PurposeSearch: {No, SourceContentUsage, 1},
	} {
		if got := u.For(p); got != want {
			t.Errorf("both: For(%v) = %+v, want %+v", p, got, want)
		}
	}
	if d := (Usage{}).For(PurposeSearch); d != (Decision{}) {
		t.Errorf("a URL that may not be fetched answers %+v", d)
	}
	if d := u.For(numPurposes); d != (Decision{}) {
		t.Errorf("a purpose past the table answers %+v", d)
	}
}

// TestPurposesTable checks the table: names are unique and set, each
// purpose falls into at least one category, and its signal and level
// exist.
func TestPurposesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range AllPurposes() {
		term := Purposes[p]
		if term.Name == "" || seen[term.Name] || p.String() != term.Name {
			t.Errorf("purpose %d: name %q missing or repeated", p, term.Name)
		}
		seen[term.Name] = true
		if len(term.Uses) == 0 || term.Signal >= numSignals || term.Level == LevelNone || term.Level >= numLevels {
			t.Errorf("purpose %q: incomplete %+v", term.Name, term)
		}
		for _, c := range term.Uses {
			if c >= numCategories {
				t.Errorf("purpose %q: category %d is not in the vocabulary", term.Name, c)
			}
		}
	}
	if Purpose(numPurposes).String() != "" {
		t.Error("a purpose past the table has a name")
	}
}

// TestMayUseAt checks the use level a group's Content-Signal lines state,
// its line, and the answer for each level.
func TestMayUseAt(t *testing.T) {
	u := decideOne("train-ai=y", "use=full", "search=yes", "use=reference, use=partial")
	if d := u.Use(); d != (LevelDecision{LevelReference, SourceContentSignal, 4}) {
		t.Fatalf("Use = %+v", d)
	}
	for l, want := range map[Level]Decision{
		LevelImmediate: {Yes, SourceContentSignal, 4},
		LevelReference: {Yes, SourceContentSignal, 4},
		LevelFull:      {No, SourceContentSignal, 4},
		LevelNone:      {},
	} {
		if got := u.MayUseAt(l); got != want {
			t.Errorf("MayUseAt(%v) = %+v, want %+v", l, got, want)
		}
	}
	if d := decideOne("train-ai=y", "search=yes").MayUseAt(LevelFull); d != (Decision{}) {
		t.Errorf("no use key: MayUseAt(full) = %+v", d)
	}
	if d := (Usage{}).Use(); d != (LevelDecision{}) {
		t.Errorf("a URL that may not be fetched states a level: %+v", d)
	}
}
