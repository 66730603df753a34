package usage_test

import (
	"fmt"

	"github.com/fastrobots/robots/usage"
)

// The group of attach-05's example that every other crawler uses, with a
// Content-Signal line added: the lines as the robots parser hands them
// over, then the decision for two URLs.
func ExampleDecide() {
	var rules []usage.Rule
	for i, value := range []string{"train-ai=n", "/ai-ok/ train-ai=y"} {
		path, pref, _ := usage.ParseContentUsage(value)
		rules = append(rules, usage.Rule{Line: 4 + i, Pattern: usage.EscapePath(path), Pref: pref})
	}
	signals := []usage.SignalLine{{Line: 6, Signal: usage.ParseContentSignal("search=yes, ai-train=no")}}
	for _, path := range []string{"/test", "/ai-ok/test"} {
		u := usage.Decide(rules, signals, path, true)
		d := u.MayTrain()
		fmt.Printf("%s: train-ai %v (line %d), search signal %v; may train: %v, decided by %v line %d\n",
			path, u.Category(usage.TrainAI).Value, u.Category(usage.TrainAI).Line,
			u.Signal(usage.SignalSearch).Value, d.Value, d.Source, d.Line)
	}
	// Output:
	// /test: train-ai no (line 4), search signal yes; may train: no, decided by Content-Usage line 4
	// /ai-ok/test: train-ai yes (line 5), search signal yes; may train: yes, decided by Content-Usage line 5
}

// A statement of preference read from a header value: unknown keys and
// parameters are ignored, and the last duplicate wins.
func ExampleParsePreference() {
	p, ok := usage.ParsePreference(`train-ai;allow=n, train-ai=y, future=n, search="n"`)
	fmt.Println(p.Get(usage.TrainAI), p.Get(usage.Search), ok)
	// Output: yes unknown true
}
