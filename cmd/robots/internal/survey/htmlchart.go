package survey

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	prefs "github.com/fastrobots/robots/usage"
)

// The chart geometry, in user units of a viewBox svgWidth wide; the page
// scales it to the width of the screen, from about 0.87 on a 390-pixel
// phone to 1.22 at the page's widest. Every label is laid out here, with
// widths estimated by textWidth; the browser tests measure what Chromium
// draws.
const (
	svgWidth     = 420
	svgFontSize  = 14 // names, legends
	svgLabelSize = 13 // the labels of segments and bars
	svgLabelMax  = 40 // runes of an agent's name a chart writes; the tables write it whole
	// svgLabelPad is the room a label inside a segment keeps on either
	// side.
	svgLabelPad = 3
	// The rows of a bar chart: the name's baseline, the bar's top and
	// height, the height of a line of labels drawn under the bar, and the
	// space between rows.
	svgNameY    = 14
	svgBarY     = 20
	svgBarH     = 22
	svgOutLineH = 17
	svgRowGap   = 12
	// svgGap is the space between two labels laid out side by side.
	svgGap = 8
	// svgSwatch is the side of the square beside a label drawn under its
	// bar, in its segment's colour.
	svgSwatch = 10
)

// The colours of the charts, each readable with its label's colour (a
// contrast of 4.5 or more, which TestSurveyPage of package browsertest
// measures in Chromium), and told apart without colour vision by the
// order of the segments, their labels and the tables.
const (
	colourAll        = "#b2182b"
	colourSome       = "#f4a582"
	colourNone       = "#4393c3"
	colourUndecided  = "#bababa"
	colourUnresolved = "#878787"
	colourTrack      = "#ececec"
	colourYes        = "#1b7837"
	colourNo         = "#762a83"
	colourPaths      = "#5e5e5e"
	colourText       = "#1a1a1a"
	colourInverse    = "#ffffff"
	colourMuted      = "#555555"
	// The causes: a class's hue, darker for a group naming the agent,
	// lighter for the '*' groups; purple for a CDN's managed section,
	// brown for the status policy.
	colourAllNamed     = "#67001f"
	colourSomeNamed    = "#d6604d"
	colourNoneNamed    = "#2166ac"
	colourNoneNoGroup  = "#92c5de"
	colourAllManaged   = "#40004b"
	colourSomeManaged  = "#c2a5cf"
	colourStatusAll    = "#8c510a"
	colourStatusNone   = "#dfc27d"
	colourSwatchStroke = "#555555"
)

// svgChart is a chart laid out for the template: a legend and rows, each
// row a list of boxes and labels.
type svgChart struct {
	ID     string // unique in the page: the ids of the title and description derive from it
	Title  string
	Desc   string
	Note   string // what the chart counts, said under it
	Height float64
	Legend []svgItem
	Rows   [][]svgItem
}

// svgItem is a box (Rect) or a label. A label's Text is followed by Sub in
// a lighter shade; a box's Tip is its <title>. Seg ties a bar's segment
// to its label: the two share it within their row, a label naming every
// segment it labels.
type svgItem struct {
	Rect       bool
	X, Y, W, H float64
	Fill       string
	Stroke     string
	Text, Sub  string
	Anchor     string // text-anchor
	Bold       bool
	Size       int // font size; 0 is the chart's
	Tip        string
	Seg        string
}

// textWidth estimates the width of s drawn at size, from the advances of
// a wide sans-serif face (DejaVu Sans, Chromium's on Debian), so that a
// label laid out to fit does fit in a narrower one.
func textWidth(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			w += 0.64
		case strings.ContainsRune(".,:;' |!ijlI()[]", r):
			w += 0.36
		case strings.ContainsRune("frt", r):
			w += 0.44
		case r == '%':
			w += 0.96
		case strings.ContainsRune("mwMW@", r):
			w += 1.0
		case r >= 'A' && r <= 'Z':
			w += 0.76
		case r < utf8.RuneSelf:
			w += 0.64
		default:
			w += 1.0
		}
	}
	if bold {
		w *= 1.12
	}
	return w * size
}

// legendEntry is a swatch and its label.
type legendEntry struct{ fill, label string }

// legendRow is a line of a legend, with a heading ("fully blocked:") or
// none.
type legendRow struct {
	head    string
	entries []legendEntry
}

// legend lays out rows of entries from the top of the chart, wrapping an
// entry that would run past the chart's width to the next line, and
// returns the items and the height they take.
func legend(rows ...legendRow) ([]svgItem, float64) {
	const lineH = 22
	var items []svgItem
	y := 0.0
	for _, r := range rows {
		indent := 0.0
		if r.head != "" {
			items = append(items, svgItem{X: 0, Y: y + 16, Text: r.head, Fill: colourText, Anchor: "start", Bold: true})
			indent = textWidth(r.head, svgFontSize, true) + svgGap
		}
		x := indent
		for _, e := range r.entries {
			w := 20 + textWidth(e.label, svgFontSize, false)
			if x > indent && x+w > svgWidth {
				x, y = indent, y+lineH
			}
			items = append(items,
				svgItem{Rect: true, X: x, Y: y + 4, W: 14, H: 14, Fill: e.fill, Stroke: swatchStroke(e.fill)},
				svgItem{X: x + 20, Y: y + 16, Text: e.label, Fill: colourText, Anchor: "start"})
			x += w + 1.5*svgGap
		}
		y += lineH
	}
	return items, y + 6
}

// swatchStroke outlines a swatch whose colour is near the page's white.
func swatchStroke(fill string) string {
	if fill == colourTrack {
		return colourSwatchStroke
	}
	return ""
}

// segment is one part of a stacked bar: a count, its colour and label.
type segment struct {
	label string
	n     int
	fill  string
	text  string // the colour of a label drawn inside
}

// shareLabel is the label of a segment of n captures: its share to one
// decimal, or "<0.1%" for a share that would round to nothing.
func (s *surveySummary) shareLabel(n int) string {
	p := s.share(n)
	if n > 0 && p < 0.05 {
		return "<0.1%"
	}
	return fmt.Sprintf("%.1f%%", p)
}

// outLabel is a label that does not fit in its segment: drawn under the
// bar, as near below the segment's centre as the others allow.
type outLabel struct {
	seg    string
	text   string
	fill   string
	centre float64
	width  float64 // swatch and text
	line   int
	x      float64
}

// placeOut lays labels out under a bar in as few lines as hold them all:
// with k lines, label i goes to line i mod k, and each line's labels
// keep their order, each as near its segment's centre as the labels
// before and after it and the chart's edges allow. It returns the lines
// used.
func placeOut(labels []outLabel) int {
	for k := 1; ; k++ {
		fits := true
		for line := range k {
			var on []*outLabel
			for i := line; i < len(labels); i += k {
				on = append(on, &labels[i])
			}
			if !placeLine(on) && k < len(labels) {
				fits = false
				break
			}
			for _, l := range on {
				l.line = line
			}
		}
		if fits {
			return k
		}
	}
}

// placeLine places labels on one line, left to right, and reports
// whether they fit within the chart's width.
func placeLine(labels []*outLabel) bool {
	for i, l := range labels {
		l.x = max(l.centre-l.width/2, 0)
		if i > 0 {
			prev := labels[i-1]
			l.x = max(l.x, prev.x+prev.width+svgGap)
		}
	}
	for i := len(labels) - 1; i >= 0; i-- {
		l := labels[i]
		l.x = min(l.x, svgWidth-l.width)
		if i < len(labels)-1 {
			l.x = min(l.x, labels[i+1].x-svgGap-l.width)
		}
	}
	return len(labels) == 0 || labels[0].x >= 0
}

// agentHeading is an agent's name above its bar, with its operator in a
// lighter shade when both fit on the chart's width.
func agentHeading(name string, y float64) svgItem {
	label, op := chartName(name), surveyOperator(name)
	if op != "" && textWidth(label, svgFontSize, true)+textWidth(" · "+op, svgFontSize, false) > svgWidth {
		op = ""
	}
	return svgItem{X: 0, Y: y + svgNameY, Text: label, Sub: op, Bold: true, Fill: colourText, Anchor: "start"}
}

// shareBars lays out, per agent, a bar as wide as the chart whose
// segments are the agent's counts as shares of the captures answered,
// each titled with its count and labelled with its share: inside the
// segment when the label fits there, else on a line under the bar
// beside a swatch of the segment's colour. The segments of a row add up
// to the whole bar when they count every capture once.
func shareBars(s *surveySummary, top float64, segments func(as *agentSummary) []segment) (rows [][]svgItem, height float64) {
	y := top
	for i, name := range s.agents {
		row := []svgItem{
			agentHeading(name, y),
			{Rect: true, X: 0, Y: y + svgBarY, W: svgWidth, H: svgBarH, Fill: colourTrack},
		}
		var out []outLabel
		x := 0.0
		for k, seg := range segments(&s.perAgent[i]) {
			if seg.n == 0 || s.captures == 0 {
				continue
			}
			id := strconv.Itoa(k)
			w := svgWidth * float64(seg.n) / float64(s.captures)
			row = append(row, svgItem{Rect: true, X: x, Y: y + svgBarY, W: w, H: svgBarH, Fill: seg.fill, Seg: id,
				Tip: fmt.Sprintf("%s: %d of %d captures (%.1f%%)", seg.label, seg.n, s.captures, s.share(seg.n))})
			text := s.shareLabel(seg.n)
			tw := textWidth(text, svgLabelSize, false)
			if tw+2*svgLabelPad <= w {
				row = append(row, svgItem{X: x + w/2, Y: y + svgBarY + 16, Text: text, Fill: seg.text, Anchor: "middle", Size: svgLabelSize, Seg: id})
			} else {
				out = append(out, outLabel{seg: id, text: text, fill: seg.fill, centre: x + w/2, width: svgSwatch + 4 + tw})
			}
			x += w
		}
		h := float64(svgBarY + svgBarH)
		if len(out) > 0 {
			lines := placeOut(out)
			for _, l := range out {
				ly := y + svgBarY + svgBarH + 4 + float64(l.line)*svgOutLineH
				row = append(row,
					svgItem{Rect: true, X: l.x, Y: ly + 3, W: svgSwatch, H: svgSwatch, Fill: l.fill, Stroke: swatchStroke(l.fill)},
					svgItem{X: l.x + svgSwatch + 4, Y: ly + 12, Text: l.text, Fill: colourText, Anchor: "start", Size: svgLabelSize, Seg: l.seg})
			}
			h += 4 + float64(lines)*svgOutLineH
		}
		rows = append(rows, row)
		y += h + svgRowGap
	}
	return rows, y
}

// chartName is an agent's name as a chart writes it: at most svgLabelMax
// runes, and no wider than the chart, so that a long name does not run
// out of it.
func chartName(name string) string {
	r := []rune(displayText(name))
	if len(r) > svgLabelMax {
		r = append(r[:svgLabelMax-1], '…')
	}
	for len(r) > 1 && textWidth(string(r), svgFontSize, true) > svgWidth {
		r = append(r[:len(r)-2], '…')
	}
	return string(r)
}

// classFills are the colours of the classes and of their labels.
var classFills = map[string][2]string{
	"all": {colourAll, colourInverse}, "some": {colourSome, colourText},
	"none": {colourNone, colourText}, "undecided": {colourUndecided, colourText},
	surveyUnresolved: {colourUnresolved, colourText},
}

// chartClasses are the segments of the class chart: the classes, then
// the unresolved redirects, which are in no class, so that each bar
// counts every capture.
var chartClasses = []string{"all", "some", "none", "undecided", surveyUnresolved}

// classChart draws each agent's captures by class.
func classChart(s *surveySummary) svgChart {
	var entries []legendEntry
	for _, c := range chartClasses {
		entries = append(entries, legendEntry{classFills[c][0], c})
	}
	items, top := legend(legendRow{entries: entries})
	rows, h := shareBars(s, top, func(as *agentSummary) []segment {
		var segs []segment
		for _, c := range chartClasses {
			f := classFills[c]
			segs = append(segs, segment{c, as.class[c], f[0], f[1]})
		}
		return segs
	})
	return svgChart{
		ID:    "classes",
		Title: "Restriction per agent: captures classed all, some, none or undecided",
		Desc: fmt.Sprintf("For each agent, a bar of the %d captures answered: those that disallow it every path (all), some paths (some), "+
			"no path (none), those the classifier left undecided, and the redirects whose target the run does not hold (unresolved), as shares. The table that follows gives the counts.", s.captures),
		Note:   fmt.Sprintf("Counts the %d captures answered, once each, by the class of the file as served, whatever decided it; each label is a share of them, the counts are in the table.", s.captures),
		Height: h, Legend: items, Rows: rows,
	}
}

// causePart is a part of the causes chart and table: the captures of a
// class that one cause gives.
type causePart struct {
	group, head string // the class's heading and the cause's, as the table writes them
	cell        string // the heading of its figure where the table's headings are not shown
	label       string // the part's name in a chart's title
	fill, text  string
	count       func(as *agentSummary) int
}

// managedBlocks sums the rows a managed section blocks, of class, over
// every source.
func (as *agentSummary) managedBlocks(class string) int {
	n := 0
	for _, byClass := range as.managed.blocks {
		n += byClass[class]
	}
	return n
}

// causeParts are the causes, the rule-made ones first: the blocks the
// site's own groups make (a group naming the agent, the '*' groups) and
// those a CDN's managed section makes beyond them, then the captures no
// rule decided (the status policy, an unresolved redirect). Each capture
// is in one part.
var causeParts = []causePart{
	{"fully blocked (all)", "named", "fully, named", "fully blocked by a group naming it", colourAllNamed, colourInverse, func(as *agentSummary) int {
		return as.sources[sourceNamed]["all"] - as.managed.blocks[sourceNamed]["all"]
	}},
	{"fully blocked (all)", "*", "fully, *", "fully blocked by the * groups", colourAll, colourInverse, func(as *agentSummary) int {
		return as.sources[sourceStar]["all"] - as.managed.blocks[sourceStar]["all"]
	}},
	{"fully blocked (all)", "CDN section", "fully, CDN section", "fully blocked by a CDN's managed section", colourAllManaged, colourInverse, func(as *agentSummary) int {
		return as.managedBlocks("all")
	}},
	{"partly blocked (some)", "named", "partly, named", "partly blocked by a group naming it", colourSomeNamed, colourInverse, func(as *agentSummary) int {
		return as.sources[sourceNamed]["some"] - as.managed.blocks[sourceNamed]["some"]
	}},
	{"partly blocked (some)", "*", "partly, *", "partly blocked by the * groups", colourSome, colourText, func(as *agentSummary) int {
		return as.sources[sourceStar]["some"] - as.managed.blocks[sourceStar]["some"]
	}},
	{"partly blocked (some)", "CDN section", "partly, CDN section", "partly blocked by a CDN's managed section", colourSomeManaged, colourText, func(as *agentSummary) int {
		return as.managedBlocks("some")
	}},
	{"not blocked (none)", "named", "not, named", "not blocked, a group naming it", colourNoneNamed, colourInverse, func(as *agentSummary) int {
		return as.sources[sourceNamed]["none"]
	}},
	{"not blocked (none)", "*", "not, *", "not blocked, the * groups", colourNone, colourText, func(as *agentSummary) int {
		return as.sources[sourceStar]["none"]
	}},
	{"not blocked (none)", "no group", "not, no group", "not blocked, no group applies", colourNoneNoGroup, colourText, func(as *agentSummary) int {
		return as.sources[sourceNoGroup]["none"]
	}},
	{"", "undecided", "undecided", "undecided", colourUndecided, colourText, func(as *agentSummary) int {
		return as.sources[sourceNamed]["undecided"] + as.sources[sourceStar]["undecided"]
	}},
	{"status, no rule read", "disallow-all", "status, disallow-all", "status: disallow-all", colourStatusAll, colourInverse, func(as *agentSummary) int {
		return as.sources[sourceStatus]["all"]
	}},
	{"status, no rule read", "allow-all", "status, allow-all", "status: allow-all", colourStatusNone, colourText, func(as *agentSummary) int {
		return as.sources[sourceStatus]["none"]
	}},
	{"", "unresolved", "unresolved", "unresolved redirect", colourUnresolved, colourText, func(as *agentSummary) int {
		return as.sources[sourceUnresolved][surveyUnresolved]
	}},
}

// causesChart draws each agent's captures by cause.
func causesChart(s *surveySummary) svgChart {
	var rows []legendRow
	heads := map[string]string{"fully blocked (all)": "fully:", "partly blocked (some)": "partly:", "not blocked (none)": "not:"}
	for _, p := range causeParts {
		head, ok := heads[p.group]
		if !ok {
			head = "other:"
		}
		label := p.head
		if p.group == "status, no rule read" {
			label = "status " + p.head
		}
		if len(rows) == 0 || rows[len(rows)-1].head != head {
			rows = append(rows, legendRow{head: head})
		}
		rows[len(rows)-1].entries = append(rows[len(rows)-1].entries, legendEntry{p.fill, label})
	}
	items, top := legend(rows...)
	bars, h := shareBars(s, top, func(as *agentSummary) []segment {
		var segs []segment
		for _, p := range causeParts {
			segs = append(segs, segment{p.label, p.count(as), p.fill, p.text})
		}
		return segs
	})
	return svgChart{
		ID:    "causes",
		Title: "Causes per agent: fully, partly or not blocked, by what decides",
		Desc: fmt.Sprintf("For each agent, a bar of the %d captures answered, by cause: fully, partly and not blocked by a group naming the agent (named), "+
			"by the * groups (*) or, beyond what the site's own rules block, by a CDN's managed section; not blocked because no group applies; undecided; "+
			"then the captures no rule decided: the status policy's disallow-all and allow-all, and the redirects the run cannot follow (unresolved). The table that follows gives the counts.", s.captures),
		Note: fmt.Sprintf("Counts the %d captures answered, once each. The rule-made parts come first: named and * are the blocks the site's own groups make; "+
			"CDN section, the captures a managed section blocks fully where the site's own rules do not, or partly where they block nothing. "+
			"Status parts are 429 and 5xx answers (disallow-all) and 4xx answers (allow-all), which no rule made; unresolved, redirects whose target the run does not hold.", s.captures),
		Height: h, Legend: items, Rows: bars,
	}
}

// rootChart draws, per agent, the captures a survey checking "/" alone
// reads otherwise than the exact class: a capture classed some is read as
// none when "/" is allowed and as all when it is not.
func rootChart(s *surveySummary) svgChart {
	items, top := legend(legendRow{entries: []legendEntry{{colourNone, "read as none"}, {colourAll, "read as all"}, {colourTrack, "read alike"}}})
	rows, h := shareBars(s, top, func(as *agentSummary) []segment {
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
		Note:   fmt.Sprintf("Counts the %d captures answered: those classed some, split by whether / is allowed (read as none) or not (read as all), and the rest (read alike).", s.captures),
		Height: h, Legend: items, Rows: rows,
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
// each segment's share is written after its bar in the segment's colour.
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
	shareW := textWidth("100.0%", svgLabelSize, false)
	barX := 0.0
	for _, l := range usageLines(&s.perAgent[0]) {
		barX = max(barX, textWidth(l.label, svgLabelSize, false)+svgGap)
	}
	barW := svgWidth - barX - svgGap - (2*shareW + svgGap)
	items, _ := legend(legendRow{entries: []legendEntry{{colourYes, "yes"}, {colourNo, "no"}, {colourPaths, "path lines"}}})
	items = append(items, svgItem{X: 0, Y: 22 + 16, Text: "bars: 0 to " + formatPercent(scale) + " of captures", Fill: colourMuted, Anchor: "start"})
	const lineH, top = 20, 22 + 22 + 6
	blockH := float64(svgBarY + len(usageLines(&s.perAgent[0]))*lineH + svgRowGap)
	var rows [][]svgItem
	width := func(n int) float64 { return barW * s.share(n) / scale }
	tip := func(label, value string, n int) string {
		return fmt.Sprintf("%s %s: %d of %d captures (%.1f%%)", label, value, n, s.captures, s.share(n))
	}
	for i, name := range s.agents {
		y := top + float64(i)*blockH
		row := []svgItem{agentHeading(name, y)}
		for j, l := range usageLines(&s.perAgent[i]) {
			ly := y + svgBarY + float64(j)*lineH
			row = append(row,
				svgItem{X: 0, Y: ly + 13, Text: l.label, Fill: colourText, Anchor: "start", Size: svgLabelSize},
				svgItem{Rect: true, X: barX, Y: ly + 2, W: barW, H: 14, Fill: colourTrack})
			parts := []struct {
				value string
				n     int
				fill  string
			}{{"yes", l.yes, colourYes}, {"no", l.no, colourNo}}
			if l.no < 0 {
				parts = parts[:1]
				parts[0].value, parts[0].fill = "", colourPaths
			}
			x, lx := barX, barX+barW+svgGap
			for k, p := range parts {
				if p.n <= 0 {
					continue
				}
				id := fmt.Sprintf("%d-%d", j, k)
				row = append(row,
					svgItem{Rect: true, X: x, Y: ly + 2, W: width(p.n), H: 14, Fill: p.fill, Tip: tip(l.label, p.value, p.n), Seg: id},
					svgItem{X: lx, Y: ly + 13, Text: s.shareLabel(p.n), Fill: p.fill, Anchor: "start", Size: svgLabelSize, Seg: id})
				x += width(p.n)
				lx += shareW + svgGap
			}
		}
		rows = append(rows, row)
	}
	return &svgChart{
		ID:    "usage",
		Title: "Usage signals per agent: Content-Signal and Content-Usage values at /",
		Desc: fmt.Sprintf("For each agent, the shares of the %d captures answered that state yes or no for each Content-Signal key and "+
			"Content-Usage category at /, and that have Content-Usage lines with a path, drawn from 0 to %s; each bar's shares follow it, yes then no. The table that follows gives the counts.",
			s.captures, formatPercent(scale)),
		Note: fmt.Sprintf("Counts the captures, of the %d answered, that state each value for the agent at /: yes (green) and no (purple), and those with Content-Usage lines scoped to a path (grey); the bars run from 0 to %s.",
			s.captures, formatPercent(scale)),
		Height: top + float64(len(s.agents))*blockH, Legend: items, Rows: rows,
	}
}

// statusChart draws the captures per status class and Google's policy,
// each bar in the colour of the class its policy gives every agent and
// labelled with its count and share.
func statusChart(s *surveySummary) *svgChart {
	keys := s.statusKeys()
	if len(keys) == 0 {
		return nil
	}
	most, barX, labelW := 0, 0.0, 0.0
	label := func(n int) string { return fmt.Sprintf("%d (%s)", n, s.shareLabel(n)) }
	for _, k := range keys {
		n := s.statuses[k]
		most = max(most, n)
		barX = max(barX, textWidth(k, svgLabelSize, false)+svgGap)
		labelW = max(labelW, textWidth(label(n), svgLabelSize, false))
	}
	barW := svgWidth - barX - svgGap - labelW
	const rowH = 26
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
		case surveyUnresolved:
			fill = colourUnresolved
		}
		w := barW * float64(n) / float64(most)
		rows = append(rows, []svgItem{
			{X: 0, Y: y + 17, Text: k, Fill: colourText, Anchor: "start", Size: svgLabelSize},
			{Rect: true, X: barX, Y: y + 4, W: w, H: 18, Fill: fill, Seg: "0",
				Tip: fmt.Sprintf("%s: %d of %d captures (%.1f%%)", k, n, s.captures, s.share(n))},
			{X: barX + w + svgGap, Y: y + 17, Text: label(n), Fill: colourText, Anchor: "start", Size: svgLabelSize, Seg: "0"},
		})
	}
	return &svgChart{
		ID:     "statuses",
		Title:  "Captures per status class and Google's policy",
		Desc:   fmt.Sprintf("A bar per status class and policy, its length the captures counted, the largest %d.", most),
		Note:   fmt.Sprintf("Counts the %d captures answered by the status of the response read (after redirects within the file) and the policy Google applies to it; each bar is labelled with its count and share.", s.captures),
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
