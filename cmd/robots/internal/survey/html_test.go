package survey

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	prefs "github.com/fastrobots/robots/usage"
)

// runSurveyHTML runs robots survey with --html and args, and returns the
// run and the page it wrote.
func runSurveyHTML(t *testing.T, args ...string) (surveyRun, string) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "report.html")
	run := runSurveyTest(t, append([]string{"--html", name}, args...)...)
	page, err := os.ReadFile(name)
	require.NoError(t, err, run.Stderr)
	return run, string(page)
}

// surveyUsageDir writes captures that state Content-Signal and
// Content-Usage values, so that the usage chart has bars.
func surveyUsageDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"managed.example.txt": "Content-Signal: search=yes, ai-train=no, use=reference\n\nUser-agent: *\nAllow: /\n",
		"paths.example.txt":   "User-agent: GPTBot\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\nDisallow: /private\n",
		"blocked.example.txt": "User-agent: *\nContent-Signal: ai-input=no\nDisallow: /\n",
		"nogroup.example.txt": "User-agent: Bingbot\nDisallow: /\n",
		"some.example.txt":    "User-agent: *\nDisallow: /\nAllow: /$\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	return dir
}

// TestSurveyHTMLCorpus: the page of a survey of the licensed corpus shows,
// in its tables and in its charts, the figures the summary prints, for
// every agent and class; it loads nothing, and its markup and each of its
// charts are well-formed XML.
func TestSurveyHTMLCorpus(t *testing.T) {
	run, page := runSurveyHTML(t, "--agents", strings.Join(surveyTestAgents, ","), warctest.LicensedCorpus)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	checkSummary(t, run, surveyTestAgents)
	checkPageSelfContained(t, page)
	checkPageFigures(t, run.Stdout, page, surveyTestAgents)
	assert.Contains(t, page, "No capture states a Content-Signal or Content-Usage value", "the corpus states none: no usage chart")
}

// TestSurveyHTMLUsage: with Content-Signal and Content-Usage values, the
// usage chart is drawn, bar for bar as the summary counts; the page is
// the same from one run to the next, and --html leaves the summary as it
// is.
func TestSurveyHTMLUsage(t *testing.T) {
	dir := surveyUsageDir(t)
	agents := []string{"GPTBot", "*", "Bingbot", "ClaudeBot"}
	run, page := runSurveyHTML(t, "--agents", strings.Join(agents, ","), dir)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	checkPageSelfContained(t, page)
	checkPageFigures(t, run.Stdout, page, agents)
	assert.Contains(t, page, `aria-labelledby="usage-title usage-desc"`, "the usage chart is drawn")
	assert.Regexp(t, `(?m)^GPTBot\s+\d+ \(\s*[\d.]+%\)\s+\d+ \(\s*[\d.]+%\)\s+\d+ \(\s*[\d.]+%\)`, run.Stdout)

	again, page2 := runSurveyHTML(t, "--agents", strings.Join(agents, ","), dir)
	require.Equal(t, cli.ExitOK, again.Code, again.Stderr)
	assert.Equal(t, page, page2, "the page of an input is the same from run to run")
	plain := runSurveyTest(t, "--agents", strings.Join(agents, ","), dir)
	assert.Equal(t, plain.Stdout, run.Stdout, "--html does not change the summary")
}

// TestSurveyHTMLEscapes: agent names given to --agents are text on the
// page, never markup, in the tables and in the charts' labels alike; a
// control character, which XML cannot hold, is replaced.
func TestSurveyHTMLEscapes(t *testing.T) {
	hostile := []string{"<script>alert(1)</script>", `"&'`, "</svg><svg onload=x>", "a\x01b", "GPTBot"}
	run, page := runSurveyHTML(t, "--agents", strings.Join(hostile, ","), surveyUsageDir(t))
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	assert.NotContains(t, strings.ToLower(page), "<script")
	assert.NotContains(t, page, "</svg><svg")
	assert.NotContains(t, page, `"&'`)
	assert.NotContains(t, page, "\x01")
	assert.Contains(t, page, "&lt;script&gt;alert(1)&lt;/script&gt;")
	assert.Contains(t, page, "&#34;&amp;&#39;")
	checkPageSelfContained(t, page)
	checkPageFigures(t, run.Stdout, page, hostile)
	// Each name stands whole as the text of its row's header, and as the
	// label of its bars in both class charts.
	doc := parsePage(t, page)
	for _, id := range []string{"classes", "rootonly"} {
		svg := doc.byAttr("aria-labelledby", id+"-title "+id+"-desc")
		require.Len(t, svg, 1, id)
		var labels []string
		for _, g := range svg[0].all("g") {
			labels = append(labels, g.all("text")[0].ownText())
		}
		assert.Equal(t, []string{hostile[0], hostile[1], hostile[2], "a\uFFFDb", "GPTBot"}, labels, id)
	}
}

// TestSurveyHTMLShard: a shard's run writes its page, which says it is a
// shard and counts that shard's captures as its summary does, its error
// row and exit status 1 included.
func TestSurveyHTMLShard(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	agents := []string{"GPTBot", "*"}
	// Two inputs, three shards: each shard takes its share of the captures
	// of every input. Five captures, indexes 0 to 4, then the missing
	// input, index 0 of its own: shard 1 of 3 holds 0 and 3 of the first,
	// and the error row.
	run, page := runSurveyHTML(t, "--agents", strings.Join(agents, ","), "--shard", "1/3", surveyUsageDir(t), missing)
	assert.Equal(t, cli.ExitNegative, run.Code, run.Stderr)
	assert.Contains(t, run.Stdout, "robots survey: 2 captures answered, 1 errors\n")
	assert.Contains(t, page, "This page counts shard 1 of 3 of the run: the captures whose index in their input is 0 modulo 3.")
	// As many inputs as shards: each shard takes inputs.
	_, byInput := runSurveyHTML(t, "--agents", strings.Join(agents, ","), "--shard", "2/2", surveyUsageDir(t), missing)
	assert.Contains(t, byInput, "This page counts shard 2 of 2 of the run: the inputs whose position among them, from 0, is 1 modulo 2.")
	checkPageSelfContained(t, page)
	checkPageFigures(t, run.Stdout, page, agents)
	doc := parsePage(t, page)
	inputs := doc.byAttr("id", "inputs")
	require.Len(t, inputs, 1)
	assert.Len(t, inputs[0].all("li"), 2)
	assert.Equal(t, missing, inputs[0].all("li")[1].text())
}

// TestSurveyHTMLErrors: an empty --html is a usage error; a page that
// cannot be created stops the run before any capture is read, with exit
// status 2 and one line; a page that cannot be written is removed.
func TestSurveyHTMLErrors(t *testing.T) {
	out := t.TempDir()
	r := clitest.Invoke(Run, "", "--out", out, "--html", "", warctest.LicensedCorpus)
	assert.Equal(t, cli.ExitUsage, r.Code)
	assert.Empty(t, r.Stdout)
	assert.Equal(t, "robots survey: --html was given an empty file name\nsee robots help survey\n", r.Stderr)
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries, "a usage error writes nothing")

	for _, name := range []string{filepath.Join(t.TempDir(), "no", "such", "report.html"), t.TempDir()} {
		r = clitest.Invoke(Run, "", "--format", "jsonl", "--out", out, "--html", name, warctest.LicensedCorpus)
		assert.Equal(t, cli.ExitUsage, r.Code, name)
		assert.Empty(t, r.Stdout, "no capture is read: %s", name)
		assert.Regexp(t, `^robots survey: open .*report.html: no such file or directory\n$|^robots survey: open .*: is a directory\n$`, r.Stderr)
	}
	entries, err = os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries, "no rows are written when the page cannot be created")

	help := clitest.Invoke(Run, "", "-h")
	assert.Contains(t, help.Stdout+help.Stderr, "[--html FILE]")
	assert.Contains(t, help.Stdout+help.Stderr, "--html FILE")

	// A write that fails is an error and leaves no partial page.
	name := filepath.Join(t.TempDir(), "report.html")
	p, err := createSurveyPage(name)
	require.NoError(t, err)
	require.NoError(t, p.f.Close())
	assert.Error(t, p.write(surveyConfig{}, newSurveySummary(nil)))
	p.abandon()
	_, err = os.Stat(name)
	assert.True(t, os.IsNotExist(err), "the page is removed: %v", err)
}

// checkPageSelfContained checks that the page runs nothing and loads
// nothing: no script, no address of any kind, no style from elsewhere,
// no event handler; that the whole page is well-formed XML; and that
// each <svg>, taken out of it alone, is too, with a viewBox, a width of
// 100 %, role="img" and a <title> and <desc> that label it.
func checkPageSelfContained(t *testing.T, page string) {
	t.Helper()
	lower := strings.ToLower(page)
	for _, bad := range []string{"<script", "src=", "href=", "@import", "url(", "://", "<link", "<img", "<iframe", "<object", "<embed", "javascript:"} {
		assert.NotContains(t, lower, bad)
	}
	doc := parsePage(t, page)
	doc.walk(func(n *xmlNode) {
		for k := range n.attr {
			assert.False(t, strings.HasPrefix(strings.ToLower(k), "on"), "an event handler: <%s %s>", n.name, k)
		}
	})
	svgs := regexp.MustCompile(`(?s)<svg\b.*?</svg>`).FindAllString(page, -1)
	require.NotEmpty(t, svgs)
	assert.Equal(t, strings.Count(page, "<svg"), len(svgs))
	for _, s := range svgs {
		root := parsePage(t, s).all("svg")
		require.Len(t, root, 1, s)
		svg := root[0]
		assert.Regexp(t, `^0 0 \d+ [\d.]+$`, svg.attr["viewBox"])
		assert.Equal(t, "100%", svg.attr["width"])
		assert.Equal(t, "img", svg.attr["role"])
		ids := strings.Fields(svg.attr["aria-labelledby"])
		require.Len(t, ids, 2)
		kids := svg.elements()
		require.GreaterOrEqual(t, len(kids), 2)
		assert.Equal(t, "title", kids[0].name, "the title comes first")
		assert.Equal(t, ids[0], kids[0].attr["id"])
		assert.NotEmpty(t, kids[0].text())
		assert.Equal(t, "desc", kids[1].name)
		assert.Equal(t, ids[1], kids[1].attr["id"])
	}
}

// checkPageFigures checks that the page shows what the summary on stdout
// says: per agent, the classes, the /-only misreadings and the usage
// values, in the tables and in the charts; and the captures, errors,
// sizes, pages, truncated files, statuses and skipped records.
func checkPageFigures(t *testing.T, stdout, page string, agents []string) {
	t.Helper()
	doc := parsePage(t, page)
	m := regexp.MustCompile(`(?m)^robots survey: (\d+) captures answered, (\d+) errors$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	captures, _ := strconv.Atoi(m[1])
	share := func(n int) string {
		if captures == 0 {
			return "0.0%"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(captures))
	}
	facts := rowsOf(t, doc, "facts")
	assert.Equal(t, []string{m[1]}, facts["captures answered"])
	assert.Equal(t, []string{m[2]}, facts["error rows (captures that could not be read)"])
	m = regexp.MustCompile(`(?m)^sizes \(bytes\): median (.+), p90 (.+), max (\d+), total (\d+)$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	sizes := rowsOf(t, doc, "sizes")
	for i, k := range []string{"median", "p90", "max", "total"} {
		assert.Equal(t, []string{m[i+1]}, sizes[k], k)
	}
	m = regexp.MustCompile(`(?m)^html: (\d+) pages served as robots.txt \(([\d.]+%)\)$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	assert.Equal(t, []string{m[1] + " (" + m[2] + ")"}, facts["HTML pages served as robots.txt"])
	m = regexp.MustCompile(`(?m)^truncated: (\d+) cut at 500 KiB \(([\d.]+%)\)$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	assert.Equal(t, []string{m[1] + " (" + m[2] + ")"}, facts["files cut at 500 KiB"])
	m = regexp.MustCompile(`(?m)^records skipped: (\d+) `).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	assert.Equal(t, []string{m[1]}, facts["WARC records skipped (not robots.txt responses)"])
	m = regexp.MustCompile(`(?m)^statuses \(class, Google's policy, captures\): (.*)$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	statuses := rowsOf(t, doc, "statuses")
	wantStatuses := map[string][]string{}
	statusTips := map[string]string{}
	for _, s := range strings.Split(m[1], ", ") {
		if s == "" {
			continue
		}
		i := strings.LastIndexByte(s, ' ')
		wantStatuses[s[:i]] = []string{s[i+1:]}
		n, _ := strconv.Atoi(s[i+1:])
		statusTips[fmt.Sprintf("%s: %d of %d captures (%s)", s[:i], n, captures, share(n))] = s[:i]
	}
	assert.Equal(t, wantStatuses, statuses)
	if len(statusTips) > 0 {
		got := map[string]string{}
		for _, r := range chartOf(t, doc, "statuses").all("rect") {
			if tip := r.tip(); tip != "" {
				got[tip] = strings.SplitN(tip, ":", 2)[0]
			}
		}
		assert.Equal(t, statusTips, got)
	}

	text := readSummaryTables(stdout, agents)
	operators := rowHeads(t, doc, "classes")
	classes := rowsOf(t, doc, "classes")
	rootonly := rowsOf(t, doc, "rootonly")
	usage := rowsOf(t, doc, "usage")
	require.Len(t, classes, len(agents))
	cell := `\s+(\d+) \(\s*([\d.]+%)\)`
	yesNo := `\s+(\d+/\d+)`
	type agentFigures struct {
		classes            map[string]int
		rootNone, rootAll  int
		signal, usage      int
		signals, categorys []string
		paths              int
		causes             []int // the page's, in causeParts' order
	}
	figures := map[string]*agentFigures{}
	for _, a := range agents {
		name := displayText(a)
		classLine := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(a) + strings.Repeat(cell, 5) + `\s+(\d+)\s+(\d+)  (.*)$`).FindStringSubmatch(stdout)
		require.NotNil(t, classLine, "%q in %s", a, stdout)
		operator := classLine[13]
		if operator == "" {
			operator = "—"
		}
		assert.Equal(t, operator, operators[name], "the operator of %q", a)
		var want []string
		f := &agentFigures{classes: map[string]int{}}
		for i, c := range surveyClasses {
			want = append(want, classLine[1+2*i]+" "+classLine[2+2*i])
			f.classes[c.String()], _ = strconv.Atoi(classLine[1+2*i])
		}
		// The page's fifth class is the unresolved redirects, which the
		// text's causes give.
		causes := text.numbers(t, "causes per agent", a)
		require.Len(t, causes, 12)
		f.classes[surveyUnresolved] = causes[11]
		want = append(want, fmt.Sprintf("%d %s", causes[11], share(causes[11])))
		assert.Equal(t, want, classes[name], "classes of %q", a)
		f.causes = checkCauses(t, text, doc, a, name, captures, share)
		checkOwnManagedMethods(t, text, doc, a, name)
		f.rootNone, _ = strconv.Atoi(classLine[11])
		f.rootAll, _ = strconv.Atoi(classLine[12])
		assert.Equal(t, []string{
			classLine[3] + " " + classLine[4],
			classLine[11] + " " + share(f.rootNone),
			classLine[12] + " " + share(f.rootAll),
			classLine[9] + " " + classLine[10],
		}, rootonly[name], "/-only of %q", a)

		nc := len(prefs.Categories())
		usageLine := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(a) + cell + strings.Repeat(yesNo, 3) + cell + strings.Repeat(yesNo, nc) + `\s+(\d+)$`).FindStringSubmatch(stdout)
		require.NotNil(t, usageLine, "%q in %s", a, stdout)
		wantUsage := []string{usageLine[1] + " " + usageLine[2], usageLine[3], usageLine[4], usageLine[5], usageLine[6] + " " + usageLine[7]}
		assert.Equal(t, append(wantUsage, usageLine[8:9+nc]...), usage[name], "usage of %q", a) // the categories, then usage-paths
		f.signal, _ = strconv.Atoi(usageLine[1])
		f.usage, _ = strconv.Atoi(usageLine[6])
		f.signals = usageLine[3:6]
		f.categorys = usageLine[8 : 8+nc]
		f.paths, _ = strconv.Atoi(usageLine[8+nc])
		figures[name] = f
	}

	// The charts: a group per agent, labelled with its name; each box
	// titled with its count, and as wide as its share of the bar.
	bars := func(id string) map[string]map[string]*xmlNode {
		byAgent := map[string]map[string]*xmlNode{}
		for _, g := range chartOf(t, doc, id).all("g") {
			boxes := map[string]*xmlNode{}
			for _, r := range g.all("rect") {
				if tip := r.tip(); tip != "" {
					boxes[tip] = r
				}
			}
			byAgent[g.all("text")[0].ownText()] = boxes
		}
		return byAgent
	}
	widthOf := func(r *xmlNode) float64 {
		w, err := strconv.ParseFloat(r.attr["width"], 64)
		require.NoError(t, err)
		return w
	}
	stacked := func(chart string, agent string, boxes map[string]*xmlNode, parts []string, counts []int, barW float64) {
		t.Helper()
		want := map[string]bool{}
		x := 0.0
		for i, part := range parts {
			if counts[i] == 0 {
				continue
			}
			tip := fmt.Sprintf("%s: %d of %d captures (%s)", part, counts[i], captures, share(counts[i]))
			want[tip] = true
			r := boxes[tip]
			if !assert.NotNil(t, r, "%s: %q has no box %q", chart, agent, tip) {
				continue
			}
			assert.InDelta(t, barW*float64(counts[i])/float64(captures), widthOf(r), 0.006, tip)
			rx, _ := strconv.ParseFloat(r.attr["x"], 64)
			assert.InDelta(t, x, rx, 0.02, "%s: %q's boxes follow each other", chart, agent)
			x += widthOf(r)
		}
		assert.Len(t, boxes, len(want), "%s: %q has a box per count that is not 0", chart, agent)
	}
	classBars, rootBars, causeBars := bars("classes"), bars("rootonly"), bars("causes")
	require.Len(t, classBars, len(agents))
	require.Len(t, rootBars, len(agents))
	require.Len(t, causeBars, len(agents))
	var causeLabels []string
	for _, p := range causeParts {
		causeLabels = append(causeLabels, p.label)
	}
	names := chartClasses
	for name, f := range figures {
		var counts []int
		for _, c := range names {
			counts = append(counts, f.classes[c])
		}
		label := chartName(name)
		stacked("classes", name, classBars[label], names, counts, svgWidth)
		stacked("causes", name, causeBars[label], causeLabels, f.causes, svgWidth)
		stacked("rootonly", name, rootBars[label], []string{"read as none", "read as all", "read alike"},
			[]int{f.rootNone, f.rootAll, captures - f.rootNone - f.rootAll}, svgWidth)
	}

	// The usage chart: a box per value stated, titled with its count; no
	// chart when nothing is stated.
	stated := 0
	wantTips := map[string]map[string]bool{}
	for name, f := range figures {
		tips := map[string]bool{}
		add := func(label, value string, n int) {
			if n > 0 {
				tips[fmt.Sprintf("%s %s: %d of %d captures (%s)", label, value, n, captures, share(n))] = true
				stated++
			}
		}
		for k, yn := range f.signals {
			y, n, _ := strings.Cut(yn, "/")
			yi, _ := strconv.Atoi(y)
			ni, _ := strconv.Atoi(n)
			add("signal "+prefs.Signals[k].Key, "yes", yi)
			add("signal "+prefs.Signals[k].Key, "no", ni)
		}
		for k, yn := range f.categorys {
			y, n, _ := strings.Cut(yn, "/")
			yi, _ := strconv.Atoi(y)
			ni, _ := strconv.Atoi(n)
			add("usage "+prefs.Categories()[k].Label(), "yes", yi)
			add("usage "+prefs.Categories()[k].Label(), "no", ni)
		}
		add("usage path lines", "", f.paths)
		wantTips[chartName(name)] = tips
	}
	if stated == 0 {
		assert.Empty(t, doc.byAttr("aria-labelledby", "usage-title usage-desc"), "no usage chart when nothing is stated")
		return
	}
	gotTips := map[string]map[string]bool{}
	for agent, boxes := range bars("usage") {
		gotTips[agent] = map[string]bool{}
		for tip := range boxes {
			gotTips[agent][tip] = true
		}
	}
	assert.Equal(t, wantTips, gotTips)
}

// rowsOf reads the table of the given id: each body row's header text
// (its own, a <small> under it apart), then its cells' texts, a count
// and its share joined by a space.
func rowsOf(t *testing.T, doc *xmlNode, id string) map[string][]string {
	t.Helper()
	tables := doc.byAttr("id", id)
	require.Len(t, tables, 1, id)
	rows := map[string][]string{}
	for _, tbody := range tables[0].all("tbody") {
		for _, tr := range tbody.all("tr") {
			th := tr.all("th")
			require.Len(t, th, 1)
			var cells []string
			for _, td := range tr.all("td") {
				cells = append(cells, strings.Join(strings.Fields(td.text()), " "))
			}
			rows[th[0].ownText()] = cells
		}
	}
	return rows
}

// chartOf returns the chart whose title has the id id+"-title".
func chartOf(t *testing.T, doc *xmlNode, id string) *xmlNode {
	t.Helper()
	svg := doc.byAttr("aria-labelledby", id+"-title "+id+"-desc")
	require.Len(t, svg, 1, id)
	return svg[0]
}

// xmlNode is an element of a page read as XML, or, with no name, its
// character data.
type xmlNode struct {
	name string
	attr map[string]string
	kids []*xmlNode
	data string
}

// parsePage reads s as strict XML: every element closed, every entity
// one XML knows.
func parsePage(t *testing.T, s string) *xmlNode {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict = true
	root := &xmlNode{}
	stack := []*xmlNode{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		top := stack[len(stack)-1]
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			top.kids = append(top.kids, &xmlNode{data: string(tok)})
		}
	}
	require.Len(t, stack, 1, "every element is closed")
	return root
}

func (n *xmlNode) walk(f func(*xmlNode)) {
	for _, k := range n.kids {
		if k.name != "" {
			f(k)
			k.walk(f)
		}
	}
}

// all returns the elements named name under n, in document order.
func (n *xmlNode) all(name string) []*xmlNode {
	var found []*xmlNode
	n.walk(func(k *xmlNode) {
		if k.name == name {
			found = append(found, k)
		}
	})
	return found
}

// byAttr returns the elements under n whose attribute key is value.
func (n *xmlNode) byAttr(key, value string) []*xmlNode {
	var found []*xmlNode
	n.walk(func(k *xmlNode) {
		if v, ok := k.attr[key]; ok && v == value {
			found = append(found, k)
		}
	})
	return found
}

// elements returns n's child elements.
func (n *xmlNode) elements() []*xmlNode {
	var els []*xmlNode
	for _, k := range n.kids {
		if k.name != "" {
			els = append(els, k)
		}
	}
	return els
}

// text is the character data under n.
func (n *xmlNode) text() string {
	var b strings.Builder
	var rec func(*xmlNode)
	rec = func(n *xmlNode) {
		for _, k := range n.kids {
			if k.name == "" {
				b.WriteString(k.data)
			} else {
				rec(k)
			}
		}
	}
	rec(n)
	return b.String()
}

// ownText is n's own character data, its children's apart.
func (n *xmlNode) ownText() string {
	var b strings.Builder
	for _, k := range n.kids {
		if k.name == "" {
			b.WriteString(k.data)
		}
	}
	return b.String()
}

// tip is the text of a box's <title>, or "".
func (n *xmlNode) tip() string {
	for _, k := range n.elements() {
		if k.name == "title" {
			return k.text()
		}
	}
	return ""
}

// summaryTables are the per-agent tables of the text summary, by their
// title line: each agent's lines, the fields after its name.
type summaryTables map[string]map[string][][]string

// readSummaryTables reads the text summary's per-agent tables: the name
// fills the first columns, padded to the longest of agents, and the
// fields follow.
func readSummaryTables(stdout string, agents []string) summaryTables {
	width := len("agent")
	for _, a := range agents {
		width = max(width, len(a))
	}
	out := summaryTables{}
	for _, block := range strings.Split(stdout, "\n\n") {
		lines := strings.Split(strings.TrimRight(block, "\n"), "\n")
		if len(lines) < 3 {
			continue
		}
		byAgent := map[string][][]string{}
		for _, l := range lines[2:] {
			if len(l) > width {
				name := strings.TrimRight(l[:width], " ")
				byAgent[name] = append(byAgent[name], strings.Fields(l[width:]))
			}
		}
		out[lines[0]] = byAgent
	}
	return out
}

// lines returns the lines of agent in the table whose title starts with
// title, and whether the summary has that table.
func (st summaryTables) lines(title, agent string) ([][]string, bool) {
	for k, byAgent := range st {
		if strings.HasPrefix(k, title) {
			return byAgent[agent], true
		}
	}
	return nil, false
}

// numbers returns the counts of agent's one line in the table whose
// title starts with title.
func (st summaryTables) numbers(t *testing.T, title, agent string) []int {
	t.Helper()
	lines, ok := st.lines(title, agent)
	require.True(t, ok, "no table %q", title)
	require.Len(t, lines, 1, "%q in %q", agent, title)
	var ns []int
	for _, f := range lines[0] {
		n, err := strconv.Atoi(f)
		require.NoError(t, err, "%q in %q", agent, title)
		ns = append(ns, n)
	}
	return ns
}

// rowHeads reads the <small> under each body row's header of the table
// of the given id, by the row's name.
func rowHeads(t *testing.T, doc *xmlNode, id string) map[string]string {
	t.Helper()
	tables := doc.byAttr("id", id)
	require.Len(t, tables, 1, id)
	out := map[string]string{}
	for _, tr := range tables[0].all("tr") {
		if th := tr.all("th"); len(th) == 1 && th[0].attr["scope"] == "row" {
			small := th[0].all("small")
			require.Len(t, small, 1)
			out[th[0].ownText()] = small[0].text()
		}
	}
	return out
}

// checkCauses checks the causes table's row of agent a (named name on
// the page) against the text summary's causes and managed sections: the
// named and '*' blocks and the managed section's add up to the text's
// blocks, the section's are its "by CDN" counts, every other part is the
// text's, and the parts count every capture once. It returns the page's
// counts, in causeParts' order.
func checkCauses(t *testing.T, text summaryTables, doc *xmlNode, a, name string, captures int, share func(int) string) []int {
	t.Helper()
	c := text.numbers(t, "causes per agent", a)
	m := text.numbers(t, "managed sections, per agent", a)
	require.Len(t, c, 12)
	require.Len(t, m, 8)
	row := rowsOf(t, doc, "causes")[name]
	require.Len(t, row, len(causeParts), "causes of %q", a)
	var got []int
	sum := 0
	for i, cell := range row {
		f := strings.Fields(cell)
		require.Len(t, f, 2, cell)
		n, err := strconv.Atoi(f[0])
		require.NoError(t, err)
		assert.Equal(t, share(n), f[1], "%q: the share of %s", a, causeParts[i].label)
		got = append(got, n)
		sum += n
	}
	assert.Equal(t, captures, sum, "%q: the causes count every capture once", a)
	assert.Equal(t, c[0]+c[1], got[0]+got[1]+got[2], "%q: fully blocked", a)
	assert.Equal(t, m[3], got[2], "%q: fully blocked by the CDN's section", a)
	assert.LessOrEqual(t, got[0], c[0])
	assert.LessOrEqual(t, got[1], c[1])
	assert.Equal(t, c[2]+c[3], got[3]+got[4]+got[5], "%q: partly blocked", a)
	assert.Equal(t, m[5], got[5], "%q: partly blocked by the CDN's section", a)
	assert.LessOrEqual(t, got[3], c[2])
	assert.LessOrEqual(t, got[4], c[3])
	assert.Equal(t, []int{c[4], c[5], c[6], c[7] + c[8], c[9], c[10], c[11]}, got[6:], "%q: not blocked, undecided, status, unresolved", a)
	return got
}

// checkOwnManagedMethods checks the tables of the sites' own rules, the
// managed sections and the methods of agent a (named name on the page)
// against the text summary's.
func checkOwnManagedMethods(t *testing.T, text summaryTables, doc *xmlNode, a, name string) {
	t.Helper()
	own, ok := text.lines("the sites' own rules", a)
	require.True(t, ok)
	require.Len(t, own, 1)
	m := regexp.MustCompile(`^(\d+)` + strings.Repeat(` (\d+) \( ?([\d.]+%), ?([\d.]+%)\)`, 4) + `$`).FindStringSubmatch(strings.Join(own[0], " "))
	require.NotNil(t, m, "%q: %v", a, own[0])
	want := []string{m[1]}
	for i := range 4 {
		want = append(want, m[2+3*i]+" "+m[3+3*i]+" · "+m[4+3*i])
	}
	assert.Equal(t, want, rowsOf(t, doc, "own")[name], "the own rules of %q", a)

	var managed []string
	for _, n := range text.numbers(t, "managed sections, per agent", a) {
		managed = append(managed, strconv.Itoa(n))
	}
	assert.Equal(t, managed, rowsOf(t, doc, "managed")[name], "the managed sections of %q", a)

	methodLines, ok := text.lines("published methods", a)
	if !ok {
		assert.Empty(t, doc.byAttr("id", "methods"), "no method compared: no table")
		return
	}
	rows := map[string][]string{}
	for _, tr := range doc.byAttr("id", "methods")[0].all("tr") {
		if th := tr.all("th"); len(th) == 1 && th[0].attr["scope"] == "row" {
			var cells []string
			for _, td := range tr.all("td") {
				cells = append(cells, td.text())
			}
			rows[th[0].text()] = cells
		}
	}
	require.NotEmpty(t, methodLines)
	for _, l := range methodLines {
		require.Len(t, l, 10, "%q: %v", a, l)
		assert.Equal(t, l[1:], rows[name+" "+l[0]], "%q, method %s", a, l[0])
	}
}
