package robots_test

import (
	"sort"
	"strconv"
	"testing"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/usageexamples"
	"github.com/fastrobots/robots/usage"
)

// usageExamples holds the drafts' and Cloudflare's examples; its "file"
// records are whole robots.txt files with checks, which TestUsageExamples
// runs through Parse and Agent.Usage.
const usageExamples = "testdata/usage/examples.txt"

// TestUsageExamples runs every whole-file example of usageExamples through
// the real parser, in both modes.
func TestUsageExamples(t *testing.T) {
	_, files, err := usageexamples.Read(usageExamples)
	if err != nil {
		t.Fatal(err)
	}
	checks := 0
	for _, f := range files {
		for _, c := range f.Checks {
			runUsageCheck(t, f.Source+": "+f.Title, f.Text, c)
			checks++
		}
	}
	if checks < 20 {
		t.Errorf("%d file checks read from %s, want every one", checks, usageExamples)
	}
}

// runUsageCheck runs one check of a file record in both modes, through
// UsagePath, Usage of a URL and UsageGiven of the URL and its verdict,
// and Usage again once the agent's automaton is built.
func runUsageCheck(t *testing.T, name string, body []byte, c usageexamples.Check) {
	t.Helper()
	for _, mode := range []robots.Mode{robots.Google, robots.RFC} {
		bot := robots.Parse(body, robots.WithMode(mode)).Agent(c.Agent)
		got := usageMap(bot.UsagePath(c.Path))
		compareUsage(t, name+": "+c.Agent+" "+c.Path+" ("+mode.String()+")", got, c.Want)
		url := "https://example.com" + c.Path
		if u := usageMap(bot.Usage(url)); !equalMaps(u, got) {
			t.Errorf("%s: Usage(url) = %v, UsagePath = %v", name, u, got)
		}
		if u := usageMap(bot.UsageGiven(url, bot.Allowed(url))); !equalMaps(u, got) {
			t.Errorf("%s: UsageGiven(url, Allowed(url)) = %v, UsagePath = %v", name, u, got)
		}
		if u := bot.UsageGiven(url, false); u != (usage.Usage{}) {
			t.Errorf("%s: UsageGiven(url, false) = %+v, want no preference", name, u)
		}
		if u := usageMap(bot.Compile().Usage(url)); !equalMaps(u, got) {
			t.Errorf("%s: Usage(url) compiled = %v, cold = %v", name, u, got)
		}
	}
}

// usageMap writes u in the names of usageExamples.
func usageMap(u usage.Usage) map[string]string {
	m := map[string]string{"crawl": map[bool]string{true: "yes", false: "no"}[u.Allowed]}
	token := map[usage.Value]string{usage.Yes: "y", usage.No: "n"}
	for _, c := range usage.Categories() {
		d := u.Category(c)
		putUsageDecision(m, c.Label(), d, token[d.Value])
	}
	for k := range usage.Signals {
		d := u.Signal(usage.SignalKey(k))
		putUsageDecision(m, usage.SignalKey(k).String(), d, d.Value.String())
	}
	if d := u.Use(); d.Level != usage.LevelNone {
		m["use"] = d.Level.String()
		m["use.line"] = strconv.Itoa(d.Line)
	}
	if d := u.MayTrain(); d.Value != usage.Unknown {
		m["maytrain"] = d.Value.String()
		m["maytrain.source"] = d.Source.String()
	}
	return m
}

func putUsageDecision(m map[string]string, name string, d usage.Decision, value string) {
	if d.Value != usage.Unknown {
		m[name] = value
	}
	if d.Line != 0 {
		m[name+".line"] = strconv.Itoa(d.Line)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// compareUsage reports every name whose value differs; a name absent from
// want must be absent from got.
func compareUsage(t *testing.T, name string, got, want map[string]string) {
	t.Helper()
	var names []string
	for k := range got {
		names = append(names, k)
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		if got[k] != want[k] {
			t.Errorf("%s: %s = %q, want %q", name, k, got[k], want[k])
		}
	}
}

// cloudflareBlock is the block Cloudflare's managed robots.txt puts before
// a site's own file, comments left out.
const cloudflareBlock = `User-agent: *
Content-Signal: search=yes,ai-train=no
Allow: /

`

// TestUsageMergesStarGroups checks the shape of a managed file: a '*'
// group prepended to the site's own '*' group. The groups merge, so the
// signal of the first applies to the paths of the second, whose Disallow
// still decides the crawl; the site's Content-Usage rule applies too.
func TestUsageMergesStarGroups(t *testing.T) {
	body := cloudflareBlock + `User-agent: *
Disallow: /private/
Content-Usage: /blog/ train-ai=y
`
	for _, mode := range []robots.Mode{robots.Google, robots.RFC} {
		bot := robots.Parse([]byte(body), robots.WithMode(mode)).Agent("ExampleBot")
		u := bot.Usage("https://example.com/page")
		if d := u.Signal(usage.SignalAITrain); d.Value != usage.No || d.Line != 2 {
			t.Errorf("%v: ai-train = %+v, want no from line 2", mode, d)
		}
		if d := u.MayTrain(); d.Value != usage.No || d.Source != usage.SourceContentSignal {
			t.Errorf("%v: MayTrain = %+v, want no from Content-Signal", mode, d)
		}
		u = bot.Usage("https://example.com/blog/post")
		if d := u.MayTrain(); d.Value != usage.Yes || d.Line != 7 || d.Source != usage.SourceContentUsage {
			t.Errorf("%v: MayTrain /blog/post = %+v, want yes from line 7", mode, d)
		}
		if u := bot.Usage("https://example.com/private/x"); u.Allowed || u.MayTrain().Value != usage.Unknown {
			t.Errorf("%v: /private/x = %+v, want disallowed with no preference", mode, u)
		}
	}
}

// TestUsageTopLevelSignal checks that a Content-Signal line before every
// group applies to every group, and that one in another crawler's group
// does not apply.
func TestUsageTopLevelSignal(t *testing.T) {
	body := `Content-Signal: ai-input=no
User-agent: a
Content-Signal: search=no
Disallow:

User-agent: b
Content-Usage: train-ai=n
Disallow:
`
	r := robots.Parse([]byte(body))
	a := r.Agent("a").Usage("https://example.com/")
	if d := a.Signal(usage.SignalAIInput); d.Value != usage.No || d.Line != 1 {
		t.Errorf("a: ai-input = %+v, want no from line 1", d)
	}
	if d := a.Signal(usage.SignalSearch); d.Value != usage.No || d.Line != 3 {
		t.Errorf("a: search = %+v, want no from line 3", d)
	}
	if d := a.Category(usage.TrainAI); d.Value != usage.Unknown {
		t.Errorf("a: train-ai = %+v, want nothing (b's rule)", d)
	}
	b := r.Agent("b").Usage("https://example.com/")
	if d := b.Signal(usage.SignalSearch); d.Value != usage.Unknown {
		t.Errorf("b: search = %+v, want nothing (a's line)", d)
	}
	if d := b.Signal(usage.SignalAIInput); d.Value != usage.No {
		t.Errorf("b: ai-input = %+v, want no from the top-level line", d)
	}
	if d := b.Category(usage.TrainAI); d.Value != usage.No || d.Line != 7 {
		t.Errorf("b: train-ai = %+v, want n from line 7", d)
	}
}
