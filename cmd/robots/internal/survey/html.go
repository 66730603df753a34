package survey

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fastrobots/robots"
	prefs "github.com/fastrobots/robots/usage"
)

// The survey's HTML report is one page, readable offline and publishable
// as it is: its style is in the page, its charts are inline SVG, and it
// has no script and loads nothing. Every figure it shows is one the
// summary prints, read from the same surveySummary, and every chart's
// figures are also written as text in a table. The page holds nothing
// that changes from one run to another over the same input (no date, no
// timing), so it can be compared.

// surveyPage is the file --html names. It is created before the run, so
// that a path that cannot be written is found before the captures are
// read, and written once the summary is known.
type surveyPage struct {
	f    *os.File
	done bool
	// regular is true when the file is a regular file, the only kind
	// abandon removes: a device or a pipe named as the page stays.
	regular bool
}

func createSurveyPage(name string) (*surveyPage, error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &surveyPage{f: f, regular: fi.Mode().IsRegular()}, nil
}

// write renders the page from cfg and sum and closes the file. The page
// is rendered whole before a byte is written: a template error leaves no
// half page.
func (p *surveyPage) write(cfg surveyConfig, sum *surveySummary) error {
	var b bytes.Buffer
	if err := surveyHTMLTemplate.Execute(&b, newSurveyReport(cfg, sum)); err != nil {
		return err
	}
	if _, err := p.f.Write(b.Bytes()); err != nil {
		return err
	}
	if err := p.f.Close(); err != nil {
		return err
	}
	p.done = true
	return nil
}

// abandon closes and removes the file unless the page was written: a run
// that ends before its summary, or whose page could not be written
// whole, leaves no empty or partial page behind.
func (p *surveyPage) abandon() {
	if p.done {
		return
	}
	p.f.Close()
	if p.regular {
		os.Remove(p.f.Name())
	}
}

// The chart geometry, in user units of a viewBox svgWidth wide; the page
// scales it to the width of the screen.
const (
	svgWidth    = 480
	svgFontSize = 15
	svgLabelMax = 40 // runes of an agent's name a chart writes; the tables write it whole
	// svgInsideMin is the narrowest segment that holds its share
	// ("100.0%") as a label.
	svgInsideMin = 56
)

// The colours of the charts, each readable with its label's colour (a
// contrast of 4.5 or more), and told apart without colour vision by the
// order of the segments and by the tables.
const (
	colourAll       = "#b2182b"
	colourSome      = "#f4a582"
	colourNone      = "#4393c3"
	colourUndecided = "#bababa"
	colourTrack     = "#ececec"
	colourYes       = "#1b7837"
	colourNo        = "#762a83"
	colourPaths     = "#5e5e5e"
	colourText      = "#1a1a1a"
	colourInverse   = "#ffffff"
	colourMuted     = "#555555"
)

// svgChart is a chart laid out for the template: a legend and rows, each
// row a list of boxes and labels.
type svgChart struct {
	ID     string // unique in the page: the ids of the title and description derive from it
	Title  string
	Desc   string
	Height float64
	Legend []svgItem
	Rows   [][]svgItem
}

// svgItem is a box (Rect) or a label. A label's Text is followed by Sub in
// a lighter shade; a box's Tip is its <title>.
type svgItem struct {
	Rect       bool
	X, Y, W, H float64
	Fill       string
	Text, Sub  string
	Anchor     string // text-anchor
	Bold       bool
	Tip        string
}

// swatch returns a legend entry at x: a square of fill and its label.
func swatch(x float64, fill, label string) []svgItem {
	return []svgItem{
		{Rect: true, X: x, Y: 4, W: 14, H: 14, Fill: fill},
		{X: x + 20, Y: 16, Text: label, Fill: colourText, Anchor: "start"},
	}
}

// reportAgent is one agent's row in the tables.
type reportAgent struct {
	Name, Operator string
	Classes        []reportCount // in surveyClasses' order
	Some           reportCount
	RootNone       reportCount
	RootAll        reportCount
	Otherwise      reportCount
	Signal, Usage  reportCount
	Signals        []string // "yes/no" per prefs.Signals key
	Categories     []string // "yes/no" per prefs.Categories
	UsagePaths     int
}

// reportCount is a count and its share of the captures answered, as the
// summary writes it ("5.6%").
type reportCount struct {
	N     int
	Share string
}

// reportFact is a line of the captures table.
type reportFact struct{ Label, Value string }

// surveyReport is what the template shows.
type surveyReport struct {
	Captures, Errors int
	Shard            string // "K of N", or "" for a whole run
	ShardRest        int    // K-1, the position modulo N of the shard's inputs or captures
	ShardN           int
	ShardByInput     bool // the shards share the inputs, not each input's captures
	Inputs           []string
	Agents           []reportAgent
	ClassNames       []string
	SignalKeys       []string
	CategoryKeys     []string
	Facts            []reportFact
	Sizes            []reportFact
	Statuses         []reportFact
	ClassChart       svgChart
	RootChart        svgChart
	UsageChart       *svgChart // nil when no capture states a value for any agent
	StatusChart      *svgChart // nil when no capture was answered
}

// newSurveyReport lays out the page of a run from its summary.
func newSurveyReport(cfg surveyConfig, s *surveySummary) *surveyReport {
	r := &surveyReport{Captures: s.captures, Errors: s.errors}
	for _, in := range cfg.inputs {
		r.Inputs = append(r.Inputs, displayText(in))
	}
	if cfg.shardN > 0 {
		r.Shard = fmt.Sprintf("%d of %d", cfg.shardK, cfg.shardN)
		r.ShardRest, r.ShardN, r.ShardByInput = cfg.shardK-1, cfg.shardN, cfg.byInput()
	}
	count := func(n int) reportCount { return reportCount{n, fmt.Sprintf("%.1f%%", s.share(n))} }
	for _, c := range surveyClasses {
		r.ClassNames = append(r.ClassNames, c.String())
	}
	for k := range prefs.Signals {
		r.SignalKeys = append(r.SignalKeys, prefs.Signals[k].Key)
	}
	for _, c := range prefs.Categories() {
		r.CategoryKeys = append(r.CategoryKeys, c.Label())
	}
	for i, name := range s.agents {
		as := &s.perAgent[i]
		a := reportAgent{
			Name:       displayText(name),
			Operator:   surveyOperator(name),
			Some:       count(as.class[robots.ClassSome.String()]),
			RootNone:   count(as.rootNone),
			RootAll:    count(as.rootAll),
			Otherwise:  count(as.rootNone + as.rootAll),
			Signal:     count(as.signal),
			Usage:      count(as.usage),
			UsagePaths: as.usagePaths,
		}
		if a.Operator == "" {
			a.Operator = "—"
		}
		for _, c := range r.ClassNames {
			a.Classes = append(a.Classes, count(as.class[c]))
		}
		for _, k := range r.SignalKeys {
			a.Signals = append(a.Signals, fmt.Sprintf("%d/%d", as.said("signal", k, "yes"), as.said("signal", k, "no")))
		}
		for _, k := range r.CategoryKeys {
			a.Categories = append(a.Categories, fmt.Sprintf("%d/%d", as.said("usage", k, "yes"), as.said("usage", k, "no")))
		}
		r.Agents = append(r.Agents, a)
	}
	share := func(n int) string { return fmt.Sprintf("%d (%.1f%%)", n, s.share(n)) }
	r.Facts = []reportFact{
		{"captures answered", strconv.Itoa(s.captures)},
		{"error rows (captures that could not be read)", strconv.Itoa(s.errors)},
		{"HTML pages served as robots.txt", share(s.html)},
		{"files cut at 500 KiB", share(s.truncated)},
		{"WARC records skipped (not robots.txt responses)", strconv.Itoa(s.skipped)},
	}
	r.Sizes = []reportFact{
		{"median", s.sizeText(0.5)},
		{"p90", s.sizeText(0.9)},
		{"max", strconv.FormatInt(s.maxSize, 10)},
		{"total", strconv.FormatInt(s.bytes, 10)},
	}
	for _, k := range s.statusKeys() {
		r.Statuses = append(r.Statuses, reportFact{k, strconv.Itoa(s.statuses[k])})
	}
	r.ClassChart = classChart(s)
	r.RootChart = rootChart(s)
	r.UsageChart = usageChart(s)
	r.StatusChart = statusChart(s)
	return r
}

// segment is one part of a stacked bar: a count, its colour and label.
type segment struct {
	label string
	n     int
	fill  string
	text  string // the colour of a label drawn inside
}

// shareBars lays out, per agent, a bar as wide as the chart whose
// segments are the agent's counts as shares of the captures answered,
// each labelled inside when it is wide enough and titled with its count.
// The segments of a row add up to the whole bar when they count every
// capture once.
func shareBars(s *surveySummary, top float64, segments func(as *agentSummary) []segment) (rows [][]svgItem, height float64) {
	const rowH, barY, barH = 54, 22, 24
	for i, name := range s.agents {
		y := top + float64(i)*rowH
		row := []svgItem{
			{X: 0, Y: y + 15, Text: chartName(name), Sub: surveyOperator(name), Bold: true, Fill: colourText, Anchor: "start"},
			{Rect: true, X: 0, Y: y + barY, W: svgWidth, H: barH, Fill: colourTrack},
		}
		x := 0.0
		for _, seg := range segments(&s.perAgent[i]) {
			if seg.n == 0 || s.captures == 0 {
				continue
			}
			w := svgWidth * float64(seg.n) / float64(s.captures)
			row = append(row, svgItem{Rect: true, X: x, Y: y + barY, W: w, H: barH, Fill: seg.fill,
				Tip: fmt.Sprintf("%s: %d of %d captures (%.1f%%)", seg.label, seg.n, s.captures, s.share(seg.n))})
			if w >= svgInsideMin {
				row = append(row, svgItem{X: x + w/2, Y: y + barY + 17, Text: fmt.Sprintf("%.1f%%", s.share(seg.n)), Fill: seg.text, Anchor: "middle"})
			}
			x += w
		}
		rows = append(rows, row)
	}
	return rows, top + float64(len(s.agents))*rowH
}

// classChart draws each agent's captures by class.
func classChart(s *surveySummary) svgChart {
	fills := map[string][2]string{
		"all": {colourAll, colourInverse}, "some": {colourSome, colourText},
		"none": {colourNone, colourText}, "undecided": {colourUndecided, colourText},
	}
	var legend []svgItem
	for i, c := range surveyClasses {
		legend = append(legend, swatch(float64(i)*100, fills[c.String()][0], c.String())...)
	}
	rows, h := shareBars(s, 32, func(as *agentSummary) []segment {
		var segs []segment
		for _, c := range surveyClasses {
			f := fills[c.String()]
			segs = append(segs, segment{c.String(), as.class[c.String()], f[0], f[1]})
		}
		return segs
	})
	return svgChart{
		ID:    "classes",
		Title: "Restriction per agent: captures classed all, some, none or undecided",
		Desc: fmt.Sprintf("For each agent, a bar of the %d captures answered: those that disallow it every path (all), some paths (some), "+
			"no path (none), and those the classifier left undecided, as shares. The table that follows gives the counts.", s.captures),
		Height: h, Legend: legend, Rows: rows,
	}
}

// rootChart draws, per agent, the captures a survey checking "/" alone
// reads otherwise than the exact class: a capture classed some is read as
// none when "/" is allowed and as all when it is not.
func rootChart(s *surveySummary) svgChart {
	legend := swatch(0, colourNone, "read as none")
	legend = append(legend, swatch(130, colourAll, "read as all")...)
	legend = append(legend, swatch(250, colourTrack, "read alike")...)
	rows, h := shareBars(s, 32, func(as *agentSummary) []segment {
		return []segment{
			{"read as none", as.rootNone, colourNone, colourText},
			{"read as all", as.rootAll, colourAll, colourInverse},
			{"read alike", s.captures - as.rootNone - as.rootAll, colourTrack, colourText},
		}
	})
	return svgChart{
		ID:    "rootonly",
		Title: "Checking / alone: captures read otherwise than by every path",
		Desc: fmt.Sprintf("For each agent, a bar of the %d captures answered: those classed some that a survey checking / alone reads as none "+
			"(/ is allowed) or as all (/ is disallowed), and those it reads alike. The table that follows gives the counts.", s.captures),
		Height: h, Legend: legend, Rows: rows,
	}
}

// usageLine is one bar of the usage chart: the captures stating yes and
// no for a key, or, with no == -1, the captures with path-scoped lines.
type usageLine struct {
	label   string
	yes, no int
}

func usageLines(as *agentSummary) []usageLine {
	var lines []usageLine
	for k := range prefs.Signals {
		key := prefs.Signals[k].Key
		lines = append(lines, usageLine{"signal " + key, as.said("signal", key, "yes"), as.said("signal", key, "no")})
	}
	for _, c := range prefs.Categories() {
		lines = append(lines, usageLine{"usage " + c.Label(), as.said("usage", c.Label(), "yes"), as.said("usage", c.Label(), "no")})
	}
	return append(lines, usageLine{"usage path lines", as.usagePaths, -1})
}

// usageChart draws, per agent, the shares of captures stating each
// Content-Signal and Content-Usage value at "/", and those with
// path-scoped Content-Usage lines. The values are rare, so the bars are
// drawn against a scale that fits the largest share, said in the legend;
// nil when no value is stated at all.
func usageChart(s *surveySummary) *svgChart {
	most := 0
	for i := range s.perAgent {
		for _, l := range usageLines(&s.perAgent[i]) {
			most = max(most, l.yes+max(l.no, 0))
		}
	}
	if most == 0 || s.captures == 0 {
		return nil
	}
	scale := niceScale(s.share(most))
	const barX, barW = 140, 200
	legend := swatch(0, colourYes, "yes")
	legend = append(legend, swatch(60, colourNo, "no")...)
	legend = append(legend, swatch(110, colourPaths, "path lines")...)
	legend = append(legend, svgItem{X: svgWidth, Y: 16, Text: "bar: 0 to " + formatPercent(scale) + " of captures", Fill: colourMuted, Anchor: "end"})
	const lineH, blockH, top = 20, 22 + 6*20 + 12, 32
	var rows [][]svgItem
	width := func(n int) float64 { return barW * s.share(n) / scale }
	tip := func(label, value string, n int) string {
		return fmt.Sprintf("%s %s: %d of %d captures (%.1f%%)", label, value, n, s.captures, s.share(n))
	}
	for i, name := range s.agents {
		y := top + float64(i)*blockH
		row := []svgItem{{X: 0, Y: y + 15, Text: chartName(name), Sub: surveyOperator(name), Bold: true, Fill: colourText, Anchor: "start"}}
		for j, l := range usageLines(&s.perAgent[i]) {
			ly := y + 22 + float64(j)*lineH
			row = append(row,
				svgItem{X: 0, Y: ly + 13, Text: l.label, Fill: colourText, Anchor: "start"},
				svgItem{Rect: true, X: barX, Y: ly + 2, W: barW, H: 14, Fill: colourTrack})
			if l.no < 0 {
				if l.yes > 0 {
					row = append(row, svgItem{Rect: true, X: barX, Y: ly + 2, W: width(l.yes), H: 14, Fill: colourPaths, Tip: tip(l.label, "", l.yes)})
				}
				row = append(row, svgItem{X: barX + barW + 8, Y: ly + 13, Text: strconv.Itoa(l.yes), Fill: colourText, Anchor: "start"})
				continue
			}
			if l.yes > 0 {
				row = append(row, svgItem{Rect: true, X: barX, Y: ly + 2, W: width(l.yes), H: 14, Fill: colourYes, Tip: tip(l.label, "yes", l.yes)})
			}
			if l.no > 0 {
				row = append(row, svgItem{Rect: true, X: barX + width(l.yes), Y: ly + 2, W: width(l.no), H: 14, Fill: colourNo, Tip: tip(l.label, "no", l.no)})
			}
			row = append(row, svgItem{X: barX + barW + 8, Y: ly + 13, Text: fmt.Sprintf("%d/%d", l.yes, l.no), Fill: colourText, Anchor: "start"})
		}
		rows = append(rows, row)
	}
	return &svgChart{
		ID:    "usage",
		Title: "Usage signals per agent: Content-Signal and Content-Usage values at /",
		Desc: fmt.Sprintf("For each agent, the shares of the %d captures answered that state yes or no for each Content-Signal key and "+
			"Content-Usage category at /, and that have Content-Usage lines with a path, drawn from 0 to %s; the figures are the captures saying yes/no. The table that follows gives the shares.",
			s.captures, formatPercent(scale)),
		Height: top + float64(len(s.agents))*blockH, Legend: legend, Rows: rows,
	}
}

// statusChart draws the captures per status class and Google's policy,
// each bar in the colour of the class its policy gives every agent.
func statusChart(s *surveySummary) *svgChart {
	keys := s.statusKeys()
	if len(keys) == 0 {
		return nil
	}
	most := 0
	for _, k := range keys {
		most = max(most, s.statuses[k])
	}
	const rowH, barX, barW = 28, 150, 250
	var rows [][]svgItem
	for i, k := range keys {
		y := float64(i) * rowH
		n := s.statuses[k]
		fill := colourPaths
		switch _, policy, _ := strings.Cut(k, " "); policy {
		case "allow_all":
			fill = colourNone
		case "disallow_all":
			fill = colourAll
		}
		rows = append(rows, []svgItem{
			{X: 0, Y: y + 18, Text: k, Fill: colourText, Anchor: "start"},
			{Rect: true, X: barX, Y: y + 4, W: barW * float64(n) / float64(most), H: 18, Fill: fill,
				Tip: fmt.Sprintf("%s: %d of %d captures (%.1f%%)", k, n, s.captures, s.share(n))},
			{X: barX + barW*float64(n)/float64(most) + 8, Y: y + 18, Text: strconv.Itoa(n), Fill: colourText, Anchor: "start"},
		})
	}
	return &svgChart{
		ID:     "statuses",
		Title:  "Captures per status class and Google's policy",
		Desc:   fmt.Sprintf("A bar per status class and policy, its length the captures counted, the largest %d.", most),
		Height: float64(len(keys))*rowH + 4, Rows: rows,
	}
}

// niceScale returns the smallest of 0.1, 0.2, 0.5, 1, 2, 5 … 100 (a
// percentage) that is at least p.
func niceScale(p float64) float64 {
	for _, m := range []float64{0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50} {
		if p <= m {
			return m
		}
	}
	return 100
}

func formatPercent(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) + "%" }

// chartName is an agent's name as a chart writes it: at most svgLabelMax
// runes, so that a long name does not run over the bar's figures.
func chartName(name string) string {
	name = displayText(name)
	if utf8.RuneCountInString(name) <= svgLabelMax {
		return name
	}
	return string([]rune(name)[:svgLabelMax-1]) + "…"
}

// displayText replaces what may not stand in an HTML or XML page, a
// control character or a byte that is not UTF-8, with U+FFFD; escaping
// is the template's.
func displayText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\t') {
			return unicode.ReplacementChar
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// svgNumber writes a coordinate with at most two decimals.
func svgNumber(x float64) string {
	return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
}

// surveyHTMLTemplate is the page. Its markup is also well-formed XML
// (void elements closed, attributes quoted), so that each <svg> can be
// taken out of it as a file of its own; html/template escapes every
// value by its context.
var surveyHTMLTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"num":      svgNumber,
	"svgWidth": func() int { return svgWidth },
	"fontSize": func() int { return svgFontSize },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="color-scheme" content="light" />
<title>robots.txt survey: {{.Captures}} captures</title>
<style>
body { margin: 0; color: #1a1a1a; background: #ffffff; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; line-height: 1.2; }
h2 { font-size: 1.25rem; margin-top: 2.5rem; border-top: 1px solid #cccccc; padding-top: 1rem; }
svg { display: block; width: 100%; max-width: 36rem; height: auto; margin: 1rem 0; }
.table { overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: bold; padding: 0.25rem 0; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #dddddd; text-align: right; vertical-align: top; }
th[scope="row"], td.text, thead th.text { text-align: left; }
td small { display: block; color: #555555; }
code { font-size: 0.95em; overflow-wrap: anywhere; }
@media (max-width: 40rem) { main { padding: 0.75rem; } table { font-size: 0.85rem; } th, td { padding: 0.2rem 0.35rem; } }
</style>
</head>
<body>
<main>
<h1>robots.txt survey</h1>
<p>{{.Captures}} captures answered and {{.Errors}} error rows (captures that could not be read), from {{len .Inputs}} input{{if ne (len .Inputs) 1}}s{{end}}, read for {{len .Agents}} agent{{if ne (len .Agents) 1}}s{{end}}. A capture is one robots.txt response; a host captured twice counts twice. Every share is of the captures answered.</p>
{{- if .Shard}}
<p>This page counts shard {{.Shard}} of the run: {{if .ShardByInput}}the inputs whose position among them, from 0, is{{else}}the captures whose index in their input is{{end}} {{.ShardRest}} modulo {{.ShardN}}. The pages of the other shards count the rest; their counts add up, the quantiles of the sizes apart.</p>
{{- end}}

<section>
<h2>Restriction per agent</h2>
<p>Each capture is read as Google's crawler reads it, and each agent is classed over every path, exactly, from the compiled rules of the groups that apply to it: <b>all</b>, every path is disallowed; <b>some</b>, some paths are allowed and some disallowed; <b>none</b>, no path is disallowed; <b>undecided</b>, the classifier's state budget ran out before every path was read.</p>
{{template "chart" .ClassChart}}
<div class="table"><table id="classes">
<caption>Captures per agent and class (count, share)</caption>
<thead><tr><th scope="col" class="text">agent</th><th scope="col" class="text">operator</th>{{range .ClassNames}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Agents}}
<tr><th scope="row">{{.Name}}</th><td class="text">{{.Operator}}</td>{{range .Classes}}<td>{{.N}} <small>{{.Share}}</small></td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>
</section>

<section>
<h2>Checking / alone</h2>
<p>A survey that checks only whether / is allowed can only say none (/ allowed) or all (/ disallowed). Every capture classed some is misread by it: as none when / is allowed, as all when / is disallowed.</p>
{{template "chart" .RootChart}}
<div class="table"><table id="rootonly">
<caption>Captures classed some, and how checking / alone reads them (count, share)</caption>
<thead><tr><th scope="col" class="text">agent</th><th scope="col">some</th><th scope="col">read as none</th><th scope="col">read as all</th><th scope="col">read otherwise</th></tr></thead>
<tbody>
{{- range .Agents}}
<tr><th scope="row">{{.Name}}</th><td>{{.Some.N}} <small>{{.Some.Share}}</small></td><td>{{.RootNone.N}} <small>{{.RootNone.Share}}</small></td><td>{{.RootAll.N}} <small>{{.RootAll.Share}}</small></td><td>{{.Otherwise.N}} <small>{{.Otherwise.Share}}</small></td></tr>
{{- end}}
</tbody>
</table></div>
</section>

<section>
<h2>Usage signals per agent</h2>
<p>The Content-Signal and Content-Usage values that apply to each agent at /: a Content-Signal line before the first group applies to every group, and where / is disallowed no preference applies. "Path lines" counts the captures where a Content-Usage line of the agent's groups has a path other than /, so that the preference at / is not the whole story.</p>
{{- if .UsageChart}}
{{template "chart" .UsageChart}}
{{- else}}
<p>No capture states a Content-Signal or Content-Usage value at / for any agent, nor a Content-Usage line with a path.</p>
{{- end}}
<div class="table"><table id="usage">
<caption>Captures stating a value at / (count, share), then yes/no per key</caption>
<thead><tr><th scope="col" class="text">agent</th><th scope="col">Content-Signal</th>{{range .SignalKeys}}<th scope="col">{{.}}</th>{{end}}<th scope="col">Content-Usage</th>{{range .CategoryKeys}}<th scope="col">{{.}}</th>{{end}}<th scope="col">path lines</th></tr></thead>
<tbody>
{{- range .Agents}}
<tr><th scope="row">{{.Name}}</th><td>{{.Signal.N}} <small>{{.Signal.Share}}</small></td>{{range .Signals}}<td>{{.}}</td>{{end}}<td>{{.Usage.N}} <small>{{.Usage.Share}}</small></td>{{range .Categories}}<td>{{.}}</td>{{end}}<td>{{.UsagePaths}}</td></tr>
{{- end}}
</tbody>
</table></div>
</section>

<section>
<h2>Captures</h2>
<p>Each capture's status gives Google's policy: 2xx is parsed, and the rules decide; a 4xx but 429, or a redirect not followed, allows every path; a 429, a 5xx or a network failure disallows every path.</p>
{{- with .StatusChart}}
{{template "chart" .}}
{{- end}}
<div class="table"><table id="statuses">
<caption>Captures per status class and Google's policy</caption>
<thead><tr><th scope="col" class="text">status, policy</th><th scope="col">captures</th></tr></thead>
<tbody>
{{- range .Statuses}}
<tr><th scope="row">{{.Label}}</th><td>{{.Value}}</td></tr>
{{- end}}
</tbody>
</table></div>
<div class="table"><table id="facts">
<caption>The captures</caption>
<tbody>
{{- range .Facts}}
<tr><th scope="row">{{.Label}}</th><td>{{.Value}}</td></tr>
{{- end}}
</tbody>
</table></div>
<div class="table"><table id="sizes">
<caption>Sizes of the captures answered, in bytes (quantiles by nearest rank)</caption>
<tbody>
{{- range .Sizes}}
<tr><th scope="row">{{.Label}}</th><td>{{.Value}}</td></tr>
{{- end}}
</tbody>
</table></div>
</section>

<section>
<h2>Inputs and agents</h2>
<p>Inputs, in the order read:</p>
<ul id="inputs">
{{- range .Inputs}}
<li><code>{{.}}</code></li>
{{- end}}
</ul>
<p>Agents, in the order given; * stands for any crawler, the * groups alone:</p>
<ol id="agents">
{{- range .Agents}}
<li><code>{{.Name}}</code> ({{.Operator}})</li>
{{- end}}
</ol>
</section>
<footer><p>Written by robots survey; docs/survey.md defines each figure.</p></footer>
</main>
</body>
</html>
{{define "chart"}}<svg viewBox="0 0 {{svgWidth}} {{num .Height}}" width="100%" role="img" aria-labelledby="{{.ID}}-title {{.ID}}-desc" font-size="{{fontSize}}">
<title id="{{.ID}}-title">{{.Title}}</title>
<desc id="{{.ID}}-desc">{{.Desc}}</desc>
{{range .Legend}}{{template "item" .}}
{{end}}{{range .Rows}}<g>{{range .}}{{template "item" .}}{{end}}</g>
{{end}}</svg>{{end}}
{{define "item"}}{{if .Rect}}<rect x="{{num .X}}" y="{{num .Y}}" width="{{num .W}}" height="{{num .H}}" fill="{{.Fill}}">{{with .Tip}}<title>{{.}}</title>{{end}}</rect>{{else}}<text x="{{num .X}}" y="{{num .Y}}" text-anchor="{{.Anchor}}" font-weight="{{if .Bold}}bold{{else}}normal{{end}}" fill="{{.Fill}}">{{.Text}}{{with .Sub}}<tspan fill="` + colourMuted + `" font-weight="normal"> · {{.}}</tspan>{{end}}</text>{{end}}{{end}}
`))
