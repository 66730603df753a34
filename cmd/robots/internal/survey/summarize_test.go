package survey

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/internal/methods"
	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/fastrobots/robots/managed"
)

// causeCapture is a robots.txt response of the causes run: where it is,
// what it answers, and where a 3xx leads.
type causeCapture struct {
	file     string // a.warc, b.warc.gz, c.warc
	url      string
	status   int
	location string // a 3xx's Location
	body     string
}

// cloudflareExample is the managed robots.txt of Cloudflare's
// documentation, a managed section before the site's own rules.
func cloudflareExample(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "managed", "testdata", "cloudflare-docs-example.txt"))
	require.NoError(t, err)
	return string(b)
}

// managedOnly is the section Cloudflare serves alone when the origin has
// no robots.txt.
const managedOnly = "# BEGIN Cloudflare Managed content\n\nUser-Agent: *\nContent-signal: search=yes, ai-train=no\nAllow: /\n\n" +
	"User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\n# END Cloudflare Managed Content\n"

// causeCaptures are the captures of three WARC files: named and '*'
// blocks, a file naming no agent asked for, 5xx and 429 (disallow-all),
// 404 (allow-all), redirects within a file, to another file and without
// a Location, and Cloudflare managed sections alone, before the site's
// '*' rules, and beside the site's own GPTBot group.
func causeCaptures(t *testing.T) []causeCapture {
	return []causeCapture{
		{"a.warc", "http://named.example/robots.txt", 200, "", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n"},
		{"a.warc", "http://star.example/robots.txt", 200, "", "User-agent: *\nDisallow: /\n"},
		{"a.warc", "http://partial.example/robots.txt", 200, "", "User-agent: GPTBot\nDisallow: /x\n"},
		{"a.warc", "http://down.example/robots.txt", 503, "", "<html>down</html>"},
		{"a.warc", "http://busy.example/robots.txt", 429, "", ""},
		{"a.warc", "http://gone.example/robots.txt", 404, "", "<html>not found</html>"},
		{"a.warc", "http://moved.example/robots.txt", 301, "https://moved.example/robots.txt", ""},
		{"a.warc", "http://local.example/robots.txt", 301, "https://local.example/robots.txt", ""},
		{"a.warc", "https://local.example/robots.txt", 200, "", "User-agent: *\nDisallow: /a\n"},
		{"a.warc", "http://noloc.example/robots.txt", 302, "", ""},
		{"a.warc", "http://cf.example/robots.txt", 200, "", cloudflareExample(t)},
		{"b.warc.gz", "https://moved.example/robots.txt", 200, "", "User-agent: GPTBot\nDisallow: /\n"},
		{"b.warc.gz", "http://cfonly.example/robots.txt", 200, "", managedOnly},
		{"b.warc.gz", "http://cfown.example/robots.txt", 200, "", managedOnly + "\nUser-agent: GPTBot\nDisallow: /private\n"},
		{"b.warc.gz", "http://far.example/robots.txt", 302, "https://elsewhere.example/robots.txt", ""},
		{"c.warc", "http://broken.example/robots.txt", 500, "", ""},
		{"c.warc", "http://undec.example/robots.txt", 200, "", "User-agent: CCBot\nAllow: /$\nDisallow: /\n"},
		{"c.warc", "http://html.example/robots.txt", 200, "", "<!DOCTYPE html><html><body>hi</body></html>"},
	}
}

// writeCauseWARCs writes the captures to their files and returns the
// inputs, in the order a.warc, b.warc.gz, c.warc.
func writeCauseWARCs(t *testing.T, caps []causeCapture) []string {
	dir := t.TempDir()
	var inputs []string
	for _, name := range []string{"a.warc", "b.warc.gz", "c.warc"} {
		var recs []byte
		for _, c := range caps {
			if c.file != name {
				continue
			}
			headers := ""
			if c.location != "" {
				headers = "Location: " + c.location + "\r\n"
			}
			recs = append(recs, warctest.Response(t, c.url, c.status, headers, []byte(c.body))...)
		}
		path := warctest.Write(t, name, strings.HasSuffix(name, ".gz"), recs)
		dst := filepath.Join(dir, name)
		require.NoError(t, os.Rename(path, dst))
		inputs = append(inputs, dst)
	}
	return inputs
}

// wantRow is what the test expects of an agent row, computed from the
// library and the captures' own description, not by the survey.
type wantRow struct {
	class, source, classSite string
	managedGroup             bool
	methods                  map[string]string
	rootAllowed              bool
	status                   int // the capture's status
	policy                   string
	managed                  string
}

// expectRows computes the rows of every capture and agent: a 3xx is
// followed within its own file, else it is unresolved (or, without a
// Location, Google's allow-all); the status decides when it is not 2xx;
// otherwise the rules, read by the library.
func expectRows(t *testing.T, caps []causeCapture, agents []string, compare []methods.Method) map[string]wantRow {
	want := map[string]wantRow{}
	for _, c := range caps {
		status, body := c.status, c.body
		policy := ""
		if status >= 300 && status <= 399 {
			switch {
			case c.location == "":
				policy = "allow_all"
			default:
				found := false
				for _, t := range caps {
					if t.file == c.file && t.url == c.location {
						status, body, found = t.status, t.body, true
					}
				}
				if !found {
					policy = surveyUnresolved
				}
			}
		}
		if policy == "" {
			switch {
			case status >= 200 && status <= 299:
				policy = "parsed"
			case status == 429 || status >= 500:
				policy = "disallow_all"
			default:
				policy = "allow_all"
			}
		}
		for _, name := range agents {
			w := wantRow{status: c.status, policy: policy}
			switch policy {
			case surveyUnresolved:
				w.class, w.source = surveyUnresolved, sourceUnresolved
			case "allow_all":
				w.class, w.source, w.rootAllowed = "none", sourceStatus, true
			case "disallow_all":
				w.class, w.source = "all", sourceStatus
			default:
				r := robots.Parse([]byte(body))
				a := agentOf(r, name)
				cl, _, _ := a.Classify()
				w.class = cl.String()
				w.rootAllowed = a.AllowedPath("/")
				switch a.Selection().Reason {
				case robots.SelectedAgent:
					w.source = sourceNamed
				case robots.SelectedGlobal:
					w.source = sourceStar
				default:
					w.source = sourceNoGroup
				}
				if secs := managed.Find([]byte(body)); len(secs) > 0 {
					w.managed = secs[0].CDN
					site, _, _ := agentOf(robots.Parse(managed.Without([]byte(body), secs)), name).Classify()
					w.classSite = site.String()
					w.managedGroup = true
					for _, l := range a.Selection().Lines {
						w.managedGroup = w.managedGroup && secs[0].Contains(l)
					}
				}
				w.methods = map[string]string{}
				for _, m := range compare {
					w.methods[string(m)] = string(methods.Classify(m, []byte(body), name))
				}
			}
			want[c.url+" "+name] = w
		}
	}
	return want
}

func agentOf(r *robots.Robots, name string) *robots.Agent {
	if name == "*" {
		return r.Agent()
	}
	return r.Agent(name)
}

// causeAgents are the agents of the causes run.
var causeAgents = []string{"GPTBot", "CCBot", "*"}

// TestSurveyCauses: each agent row says where its class comes from, an
// unresolved redirect is "unresolved" (never "none"), a managed section
// is named on its capture, with class_site and managed_group on the
// agent rows, and --compare gives each method's class; every row is
// checked against the library, and the cases that matter by hand.
func TestSurveyCauses(t *testing.T) {
	caps := causeCaptures(t)
	inputs := writeCauseWARCs(t, caps)
	compare := methods.Methods()
	want := expectRows(t, caps, causeAgents, compare)
	run := runSurveyTest(t, append([]string{"--agents", strings.Join(causeAgents, ","), "--compare", "dpi,cc,imc,root"}, inputs...)...)
	require.Equal(t, 0, run.Code, run.Stderr)

	captures := map[string]map[string]any{}
	for _, c := range run.captures {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(c.raw), &m))
		captures[fmt.Sprint(m["input"], " ", m["index"])] = m
	}
	require.Len(t, run.agents, len(caps)*len(causeAgents))
	got := map[string]map[string]any{}
	for _, a := range run.agents {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(a.raw), &m))
		got[a.URL+" "+a.Agent] = m
		w, ok := want[a.URL+" "+a.Agent]
		require.True(t, ok, a.raw)
		c := captures[fmt.Sprint(m["input"], " ", m["index"])]
		assert.Equal(t, w.class, m["class"], a.raw)
		assert.Equal(t, w.source, m["source"], a.raw)
		assert.Equal(t, w.managedGroup, m["managed_group"], a.raw)
		assert.Equal(t, w.rootAllowed, m["root_allowed"], a.raw)
		assert.Equal(t, w.classSite, str(m["class_site"]), a.raw)
		assert.Equal(t, w.policy, c["policy"], a.raw)
		assert.Equal(t, w.managed, str(c["managed"]), a.raw)
		for _, meth := range compare {
			assert.Equal(t, w.methods[string(meth)], str(m["class_"+string(meth)]), "%s: %s", meth, a.raw)
		}
	}

	// By hand: what each case must say, whatever the library.
	for key, w := range map[string]string{
		"http://named.example/robots.txt GPTBot":   "named all  false",
		"http://named.example/robots.txt CCBot":    "star some  false",
		"http://star.example/robots.txt GPTBot":    "star all  false",
		"http://partial.example/robots.txt GPTBot": "named some  false",
		"http://partial.example/robots.txt *":      "nogroup none  false",
		"http://down.example/robots.txt GPTBot":    "status all  false",
		"http://busy.example/robots.txt CCBot":     "status all  false",
		"http://gone.example/robots.txt GPTBot":    "status none  false",
		"http://moved.example/robots.txt GPTBot":   "unresolved unresolved  false",
		"http://far.example/robots.txt *":          "unresolved unresolved  false",
		"http://local.example/robots.txt GPTBot":   "star some  false",
		"http://noloc.example/robots.txt GPTBot":   "status none  false",
		"http://cf.example/robots.txt GPTBot":      "named all some true",
		"http://cf.example/robots.txt CCBot":       "named all some true",
		"http://cf.example/robots.txt *":           "star some some false",
		"http://cfonly.example/robots.txt GPTBot":  "named all none true",
		"http://cfonly.example/robots.txt *":       "star none none true",
		"http://cfown.example/robots.txt GPTBot":   "named all some false",
		"http://cfown.example/robots.txt *":        "star none none true",
		"http://broken.example/robots.txt *":       "status all  false",
		"http://undec.example/robots.txt CCBot":    "named some  false",
		"http://html.example/robots.txt GPTBot":    "nogroup none  false",
	} {
		m := got[key]
		require.NotNil(t, m, key)
		assert.Equal(t, w, fmt.Sprint(m["source"], " ", m["class"], " ", str(m["class_site"]), " ", m["managed_group"]), key)
	}
	for _, c := range run.captures {
		if strings.HasPrefix(c.URL, "http://cf") {
			assert.Contains(t, c.raw, `"managed":"cloudflare"`)
		} else {
			assert.NotContains(t, c.raw, `"managed"`)
		}
	}
	// The methods: DPI reads the named file's GPTBot group, and the
	// status-decided and unresolved rows carry no method's class.
	assert.Equal(t, "all", got["http://named.example/robots.txt GPTBot"]["class_dpi"])
	assert.Nil(t, got["http://down.example/robots.txt GPTBot"]["class_dpi"])
	assert.Nil(t, got["http://moved.example/robots.txt GPTBot"]["class_root"])
	assert.Equal(t, "uncounted", got["http://html.example/robots.txt GPTBot"]["class_cc"], "Common Crawl's job skips an HTML body")
}

func str(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// testSummary is the document summarize --json prints, read by the names
// docs/survey.md gives.
type testSummary struct {
	Captures int            `json:"captures"`
	Errors   int            `json:"errors"`
	Statuses map[string]int `json:"statuses"`
	Managed  map[string]int `json:"managed"`
	Agents   []struct {
		Agent    string                    `json:"agent"`
		Classes  map[string]int            `json:"classes"`
		Sources  map[string]map[string]int `json:"sources"`
		Own      map[string]int            `json:"own"`
		RootOnly map[string]int            `json:"root_only"`
		Managed  struct {
			Captures int                       `json:"captures"`
			Group    int                       `json:"group"`
			Classes  map[string]map[string]int `json:"classes"`
		} `json:"managed"`
		Methods map[string]struct {
			Compared    int                       `json:"compared"`
			Same        int                       `json:"same"`
			MoreBlocked int                       `json:"more_blocked"`
			LessBlocked int                       `json:"less_blocked"`
			Uncounted   int                       `json:"uncounted"`
			Undecided   int                       `json:"undecided"`
			Classes     map[string]map[string]int `json:"classes"`
		} `json:"methods"`
	} `json:"agents"`
}

// bump adds one to m[a][b].
func bump(m map[string]map[string]int, a, b string) {
	if m[a] == nil {
		m[a] = map[string]int{}
	}
	m[a][b]++
}

// TestSurveySummarize: summarize --json over the causes run gives every
// count the expected rows give, counted here; the same from JSON Lines
// and Parquet, from the four shards of the run together, and the text
// summary is the one the run printed.
func TestSurveySummarize(t *testing.T) {
	caps := causeCaptures(t)
	inputs := writeCauseWARCs(t, caps)
	compare := methods.Methods()
	want := expectRows(t, caps, causeAgents, compare)
	args := append([]string{"--agents", strings.Join(causeAgents, ","), "--compare", "dpi,cc,imc,root"}, inputs...)

	jsonlDir, jr := surveyOut(t, "jsonl", args...)
	require.Equal(t, 0, jr.Code, jr.Stderr)
	parquetDir, pr := surveyOut(t, "parquet", args...)
	require.Equal(t, 0, pr.Code, pr.Stderr)
	assert.Equal(t, jr.Stdout, pr.Stdout)
	// Four shards of three inputs share each input's captures; three
	// share the inputs.
	shardDir, byInputDir := t.TempDir(), t.TempDir()
	for k := 1; k <= 4; k++ {
		r := clitest.Invoke(Run, "", append([]string{"--out", shardDir, "--shard", fmt.Sprintf("%d/4", k)}, args...)...)
		require.Equal(t, 0, r.Code, r.Stderr)
	}
	for k := 1; k <= 3; k++ {
		r := clitest.Invoke(Run, "", append([]string{"--out", byInputDir, "--format", "jsonl", "--shard", fmt.Sprintf("%d/3", k)}, args...)...)
		require.Equal(t, 0, r.Code, r.Stderr)
	}

	// The text summary rebuilt is the one the run printed.
	text := clitest.Invoke(Run, "", "summarize", parquetDir)
	require.Equal(t, 0, text.Code, text.Stderr)
	assert.Equal(t, pr.Stdout, text.Stdout)
	text = clitest.Invoke(Run, "", "summarize", jsonlDir)
	require.Equal(t, 0, text.Code, text.Stderr)
	assert.Equal(t, jr.Stdout, text.Stdout)

	docs := map[string]string{}
	for name, dir := range map[string]string{"jsonl": jsonlDir, "parquet": parquetDir, "shards": shardDir, "by input": byInputDir} {
		r := clitest.Invoke(Run, "", "summarize", "--json", dir)
		require.Equal(t, 0, r.Code, r.Stderr)
		docs[name] = r.Stdout
	}
	assert.JSONEq(t, docs["parquet"], docs["jsonl"])
	assert.JSONEq(t, docs["parquet"], docs["shards"], "four shards summarised together are the run")
	assert.JSONEq(t, docs["parquet"], docs["by input"], "three shards by input summarised together are the run")

	var got testSummary
	require.NoError(t, json.Unmarshal([]byte(docs["parquet"]), &got))
	assert.Equal(t, len(caps), got.Captures)
	assert.Equal(t, 0, got.Errors)
	statuses := map[string]int{}
	managedCaps := map[string]int{}
	for _, c := range caps {
		w := want[c.url+" GPTBot"]
		statuses[fmt.Sprintf("%dxx %s", w.status/100, w.policy)]++
		if w.managed != "" {
			managedCaps[w.managed]++
		}
	}
	assert.Equal(t, statuses, got.Statuses)
	assert.Equal(t, map[string]int{"cloudflare": 3}, managedCaps, "the test's own reading of its captures")
	assert.Equal(t, managedCaps, got.Managed)
	require.Len(t, got.Agents, len(causeAgents))
	for i, name := range causeAgents {
		ga := got.Agents[i]
		require.Equal(t, name, ga.Agent)
		classes, own, rootOnly := map[string]int{}, map[string]int{}, map[string]int{}
		sources, managedPairs := map[string]map[string]int{}, map[string]map[string]int{}
		managedRows, managedGroup := 0, 0
		type diffs struct{ compared, same, more, less, uncounted, undecided int }
		methodDiffs := map[string]*diffs{}
		methodPairs := map[string]map[string]map[string]int{}
		rank := map[string]int{"none": 1, "some": 2, "all": 3}
		for _, c := range caps {
			w := want[c.url+" "+name]
			classes[w.class]++
			bump(sources, w.source, w.class)
			if w.source == sourceNamed || w.source == sourceStar || w.source == sourceNoGroup {
				if w.classSite != "" {
					own[w.classSite]++
				} else {
					own[w.class]++
				}
			}
			if w.class == "some" {
				if w.rootAllowed {
					rootOnly["none"]++
				} else {
					rootOnly["all"]++
				}
			}
			if w.classSite != "" {
				managedRows++
				if w.managedGroup {
					managedGroup++
				}
				bump(managedPairs, w.class, w.classSite)
			}
			for m, mc := range w.methods {
				d := methodDiffs[m]
				if d == nil {
					d = &diffs{}
					methodDiffs[m] = d
					methodPairs[m] = map[string]map[string]int{}
				}
				bump(methodPairs[m], w.class, mc)
				d.compared++
				switch {
				case mc == "uncounted":
					d.uncounted++
				case rank[w.class] == 0:
					d.undecided++
				case mc == w.class:
					d.same++
				case rank[mc] > rank[w.class]:
					d.more++
				default:
					d.less++
				}
			}
		}
		assert.Equal(t, classes, ga.Classes, name)
		assert.Equal(t, sources, ga.Sources, name)
		assert.Equal(t, own, ga.Own, name)
		assert.Equal(t, rootOnly, ga.RootOnly, name)
		assert.Equal(t, managedRows, ga.Managed.Captures, name)
		assert.Equal(t, managedGroup, ga.Managed.Group, name)
		assert.Equal(t, managedPairs, ga.Managed.Classes, name)
		require.Len(t, ga.Methods, len(compare), name)
		for m, d := range methodDiffs {
			gm := ga.Methods[m]
			assert.Equal(t, *d, diffs{gm.Compared, gm.Same, gm.MoreBlocked, gm.LessBlocked, gm.Uncounted, gm.Undecided}, "%s %s", name, m)
			assert.Equal(t, methodPairs[m], gm.Classes, "%s %s", name, m)
		}
	}
	// The figures the test's captures are built for, by hand: GPTBot is
	// blocked by rules naming it on named, moved's target and the three
	// managed captures, partly on partial; far's and moved's targets are
	// not seen; and the managed sections block it on three captures, where
	// the site's own rules block it partly on two and not at all on one.
	g := got.Agents[0]
	assert.Equal(t, map[string]int{"all": 5, "some": 1}, g.Sources[sourceNamed])
	assert.Equal(t, map[string]int{"unresolved": 2}, g.Sources[sourceUnresolved])
	assert.Equal(t, map[string]int{"all": 3, "none": 2}, g.Sources[sourceStatus])
	assert.Equal(t, map[string]map[string]int{"all": {"some": 2, "none": 1}}, g.Managed.Classes)
}

// TestSurveySummarizeRuns: several directories are several runs, each
// summarised as its own; a run's missing shard is said and exits 1;
// what is no survey output is a usage error.
func TestSurveySummarizeRuns(t *testing.T) {
	caps := causeCaptures(t)
	inputs := writeCauseWARCs(t, caps)
	one, r := surveyOut(t, "parquet", "--agents", "GPTBot", inputs[0])
	require.Equal(t, 0, r.Code, r.Stderr)
	two, r2 := surveyOut(t, "jsonl", "--agents", "GPTBot", inputs[1])
	require.Equal(t, 0, r2.Code, r2.Stderr)

	both := clitest.Invoke(Run, "", "summarize", "--json", one, two)
	require.Equal(t, 0, both.Code, both.Stderr)
	var doc struct {
		Runs []struct {
			Run      string `json:"run"`
			Captures int    `json:"captures"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(both.Stdout), &doc))
	require.Len(t, doc.Runs, 2)
	assert.Equal(t, filepath.Clean(one), doc.Runs[0].Run)
	assert.Equal(t, 11, doc.Runs[0].Captures, "a.warc")
	assert.Equal(t, 4, doc.Runs[1].Captures, "b.warc.gz")
	text := clitest.Invoke(Run, "", "summarize", one, two)
	require.Equal(t, 0, text.Code, text.Stderr)
	assert.Equal(t, "== run "+filepath.Clean(one)+"\n"+r.Stdout+"\n== run "+filepath.Clean(two)+"\n"+r2.Stdout, text.Stdout)

	// Files named one by one are the run of their directory.
	files := clitest.Invoke(Run, "", "summarize", filepath.Join(one, "captures.parquet"), filepath.Join(one, "agents.parquet"), filepath.Join(one, "errors.parquet"))
	require.Equal(t, 0, files.Code, files.Stderr)
	assert.Equal(t, r.Stdout, files.Stdout)

	shards := t.TempDir()
	for k := 1; k <= 3; k += 2 {
		r := clitest.Invoke(Run, "", "--out", shards, "--shard", fmt.Sprintf("%d/3", k), "--agents", "GPTBot", inputs[0])
		require.Equal(t, 0, r.Code, r.Stderr)
	}
	missing := clitest.Invoke(Run, "", "summarize", shards)
	assert.Equal(t, 1, missing.Code)
	assert.Contains(t, missing.Stderr, "captures: shard 2 of 3 missing")

	for _, bad := range [][]string{
		{"summarize"},
		{"summarize", filepath.Join(t.TempDir(), "nothing")},
		{"summarize", inputs[0]},
		{"summarize", t.TempDir()},
		{"summarize", "--html", filepath.Join(t.TempDir(), "p.html"), one, two},
	} {
		r := clitest.Invoke(Run, "", bad...)
		assert.Equal(t, 2, r.Code, "%v: %s", bad, r.Stderr)
	}
	mixed := t.TempDir()
	for _, f := range []string{"captures.parquet", "agents.jsonl"} {
		require.NoError(t, os.WriteFile(filepath.Join(mixed, f), nil, 0o644))
	}
	assert.Equal(t, 2, clitest.Invoke(Run, "", "summarize", mixed).Code)

	// A file that is not what its name says is an error, not a panic.
	broken := t.TempDir()
	for _, f := range []string{"captures.parquet", "agents.parquet", "errors.parquet"} {
		require.NoError(t, os.WriteFile(filepath.Join(broken, f), []byte("PAR1 not parquet PAR1"), 0o644))
	}
	br := clitest.Invoke(Run, "", "summarize", broken)
	assert.Equal(t, 1, br.Code)
	assert.Contains(t, br.Stderr, "agents.parquet")
	var agents strings.Builder
	for i := range summarizeMaxAgents + 1 {
		fmt.Fprintf(&agents, "{\"agent\":\"a%d\",\"class\":\"none\",\"source\":\"star\"}\n", i)
	}
	for _, c := range []struct{ captures, agents, says string }{
		{"{\"index\":0}\nnot json\n", "", "captures.jsonl: line 2"},
		{"", strings.Repeat("x", summarizeMaxLine+10), "agents.jsonl: line 1: "},
		{"", agents.String(), fmt.Sprintf("agents.jsonl: line %d: the rows name more than %d agents", summarizeMaxAgents+1, summarizeMaxAgents)},
	} {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "captures.jsonl"), []byte(c.captures), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "agents.jsonl"), []byte(c.agents), 0o644))
		r := clitest.Invoke(Run, "", "summarize", dir)
		assert.Equal(t, 1, r.Code)
		assert.Contains(t, r.Stderr, c.says)
	}
}

// TestSurveySummarizeOddRows: rows no survey writes (a negative or huge
// size, a status of any number, a class or source of no name) are
// counted as they say, never a panic.
func TestSurveySummarizeOddRows(t *testing.T) {
	dir := t.TempDir()
	captures := `{"index":0,"input":"x","bytes":-5,"status":-200,"policy":"parsed"}
{"index":1,"input":"x","bytes":1000000000000000000,"status":99999,"policy":"odd","managed":"elsewhere"}
{"index":2,"input":"y","error":"broken","skipped":-3}
`
	agents := `{"index":0,"input":"x","agent":"GPTBot","class":"strange","source":"nowhere","class_site":"all","class_dpi":"odd","content_signal":{"ai-train":"maybe"}}
{"index":1,"input":"x","agent":"GPTBot","class":"all","source":"named","class_site":"none","managed_group":true,"class_root":"none"}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "captures.jsonl"), []byte(captures), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "agents.jsonl"), []byte(agents), 0o644))
	r := clitest.Invoke(Run, "", "summarize", "--json", dir)
	require.Equal(t, 0, r.Code, r.Stderr)
	var got testSummary
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &got))
	assert.Equal(t, 2, got.Captures)
	assert.Equal(t, 1, got.Errors)
	assert.Equal(t, map[string]int{"-2xx parsed": 1, "999xx odd": 1}, got.Statuses)
	assert.Equal(t, map[string]int{"elsewhere": 1}, got.Managed)
	require.Len(t, got.Agents, 1)
	assert.Equal(t, map[string]map[string]int{"nowhere": {"strange": 1}, "named": {"all": 1}}, got.Agents[0].Sources)
	assert.Equal(t, 1, got.Agents[0].Methods["root"].LessBlocked)
	assert.Equal(t, 1, got.Agents[0].Methods["dpi"].Undecided, "a class of no rank has no direction")
	text := clitest.Invoke(Run, "", "summarize", dir)
	require.Equal(t, 0, text.Code, text.Stderr)
	assert.Contains(t, text.Stdout, "sizes (bytes): median over 512000")
}

// TestSurveySummarizeHTML: summarize --html writes the page the run
// wrote.
func TestSurveySummarizeHTML(t *testing.T) {
	out := t.TempDir()
	page := filepath.Join(t.TempDir(), "run.html")
	r := clitest.Invoke(Run, "", "--out", out, "--html", page, "--agents", "GPTBot,*", warctest.LicensedCorpus)
	require.Equal(t, 0, r.Code, r.Stderr)
	again := filepath.Join(t.TempDir(), "again.html")
	s := clitest.Invoke(Run, "", "summarize", "--html", again, out)
	require.Equal(t, 0, s.Code, s.Stderr)
	assert.Equal(t, r.Stdout, s.Stdout)
	a, err := os.ReadFile(page)
	require.NoError(t, err)
	b, err := os.ReadFile(again)
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b), "the page rebuilt is the run's")
}
