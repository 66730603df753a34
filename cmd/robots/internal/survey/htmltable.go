package survey

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/methods"
	prefs "github.com/fastrobots/robots/usage"
)

// The tables of figures per agent are tables where their box holds them,
// and below that width a grid per agent, each figure under its name (the
// page never scrolls sideways, and no table scrolls inside its box). The
// width a table needs grows with its figures (a run of a hundred million
// captures writes nine digits where a test writes four), so it is
// estimated here, from the same widths the charts are laid out with, and
// the page's style switches each table at its own width: a container
// query on the table's box, so that no script measures anything.

// The tables' type, in pixels at the page's 16-pixel font, as the style
// sets them.
const (
	tableFontSize  = 16
	tableSmallSize = 13.33 // <small>: a size smaller
	tableCellPad   = 19.2  // 0.6rem on either side
	// tableNameMax is the widest a word of an agent's name is given
	// before it may break anywhere: a longer one breaks rather than
	// widen its table.
	tableNameMax = 256
	// tableSlack is added to a table's estimated width, in proportion,
	// for the faces whose advances are wider than textWidth's.
	tableSlack = 1.04
)

// reportTable is a table of figures per agent, or per agent and method.
type reportTable struct {
	ID      string
	Caption string
	Corner  string // the heading of the agents' column
	// CornerSub follows Corner in a lighter shade.
	CornerSub string
	Heads     []reportHead // a column's heading each; a grouped one has its Group
	Groups    []reportHead // the first row of the headings when some are grouped (headGroups), else nil
	Rows      []reportRow
	// Grid is the layout below Break: "narrow" keeps the headings as a
	// row at the top of the screen over a grid of Cols columns per agent;
	// "wide" names each figure in the grid by its column (data-label).
	Grid  string
	Cols  int
	Break int // the width of its box, in pixels, below which it is a grid
}

// reportRow is an agent's row: its name, a line under it (Sub, or beside
// it when Inline) and its figures.
type reportRow struct {
	Name, Sub string
	Inline    bool
	Cells     []reportCell
}

// reportCell is a figure: its text, a share or a second figure under it
// (Small), and the heading of its column, which a grid writes beside it.
type reportCell struct {
	Label, Text, Small string
}

// newReportTable starts a table whose columns are heads.
func newReportTable(id, caption, corner, grid string, cols int, heads []reportHead) *reportTable {
	t := &reportTable{ID: id, Caption: caption, Corner: corner, Grid: grid, Cols: cols, Heads: heads}
	for _, h := range heads {
		if h.Group != "" {
			t.Groups = headGroups(heads)
			break
		}
	}
	return t
}

// plainHeads are headings of no group.
func plainHeads(heads ...string) []reportHead {
	var out []reportHead
	for _, h := range heads {
		out = append(out, reportHead{Head: h})
	}
	return out
}

// done sets the table's Break from its estimated width and returns it.
func (t *reportTable) done() *reportTable {
	t.Break = int(math.Ceil(t.width() * tableSlack))
	return t
}

// width estimates the narrowest the table can be laid out as a table:
// per column, the widest word of its heading, figures and smaller lines,
// and its padding; the agents' column as wide as the widest word of a
// name (a name breaks after a hyphen, as a heading does), up to
// tableNameMax.
func (t *reportTable) width() float64 {
	cols := make([]float64, len(t.Heads))
	for i, h := range t.Heads {
		cols[i] = widestWord(h.Head, tableFontSize, true)
	}
	name := widestWord(t.Corner, tableFontSize, true)
	for _, r := range t.Rows {
		w := min(widestWord(r.Name, tableFontSize, true), tableNameMax)
		if r.Inline {
			w += textWidth(" "+r.Sub, tableSmallSize, false)
		} else {
			w = max(w, widestWord(r.Sub, tableSmallSize, false))
		}
		name = max(name, w)
		for i, c := range r.Cells {
			if i < len(cols) {
				cols[i] = max(cols[i], widestWord(c.Text, tableFontSize, false), widestWord(c.Small, tableSmallSize, false))
			}
		}
	}
	w := name + tableCellPad
	for i, c := range cols {
		w += c + tableCellPad
		if g := t.Heads[i].Group; g != "" && (i == 0 || t.Heads[i-1].Group != g) {
			// A group's heading is as wide as its widest word at least.
			span := 0.0
			for j := i; j < len(cols) && t.Heads[j].Group == g; j++ {
				span += cols[j] + tableCellPad
			}
			w += max(0, widestWord(g, tableFontSize, true)+tableCellPad-span)
		}
	}
	return w
}

// widestWord is the width of the widest of the words of s, a word ending
// at a space or after a hyphen, where a line may break.
func widestWord(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, f := range strings.Fields(s) {
		for part := range strings.SplitAfterSeq(f, "-") {
			w = max(w, textWidth(part, size, bold))
		}
	}
	return w
}

// countCell is a count and its share of the captures answered.
func (s *surveySummary) countCell(label string, n int) reportCell {
	return reportCell{label, strconv.Itoa(n), fmt.Sprintf("%.1f%%", s.share(n))}
}

// numberCell is a count alone.
func numberCell(label string, n int) reportCell {
	return reportCell{Label: label, Text: strconv.Itoa(n)}
}

// agentRows adds a row per agent of s, its figures given by cells.
func (t *reportTable) agentRows(s *surveySummary, agents []reportAgent, cells func(as *agentSummary) []reportCell) *reportTable {
	for i, a := range agents {
		t.Rows = append(t.Rows, reportRow{Name: a.Name, Cells: cells(&s.perAgent[i])})
	}
	return t.done()
}

// classTable is the captures per agent and class, with the agents'
// operators.
func classTable(s *surveySummary, agents []reportAgent) *reportTable {
	t := newReportTable("classes", "Captures per agent and class (count, share)", "agent", "narrow", len(chartClasses), plainHeads(chartClasses...))
	t.CornerSub = "operator"
	for i, a := range agents {
		as := &s.perAgent[i]
		var cells []reportCell
		for _, c := range chartClasses {
			cells = append(cells, s.countCell(c, as.class[c]))
		}
		t.Rows = append(t.Rows, reportRow{Name: a.Name, Sub: a.Operator, Cells: cells})
	}
	return t.done()
}

// causeTable is the captures per agent and cause, in causeParts' order.
func causeTable(s *surveySummary, agents []reportAgent) *reportTable {
	var heads []reportHead
	for _, p := range causeParts {
		heads = append(heads, reportHead{Group: p.group, Head: p.head})
	}
	t := newReportTable("causes", "Captures per agent and cause (count, share)", "agent", "wide", 3, heads)
	return t.agentRows(s, agents, func(as *agentSummary) []reportCell {
		var cells []reportCell
		for _, p := range causeParts {
			cells = append(cells, s.countCell(p.cell, p.count(as)))
		}
		return cells
	})
}

// ownTable is, per agent, the captures whose rules were read and the
// class the sites' own rules give them.
func ownTable(s *surveySummary, agents []reportAgent) *reportTable {
	var names []string
	for _, c := range surveyClasses {
		names = append(names, c.String())
	}
	t := newReportTable("own", "Captures read, and the class the sites' own rules give (count, share of answered · of read)", "agent", "narrow",
		len(names)+1, plainHeads(append([]string{"read"}, names...)...))
	return t.agentRows(s, agents, func(as *agentSummary) []reportCell {
		read := 0
		for _, n := range as.own {
			read += n
		}
		cells := []reportCell{numberCell("read", read)}
		for _, c := range names {
			n := as.own[c]
			cells = append(cells, reportCell{c, strconv.Itoa(n), fmt.Sprintf("%.1f%% · %.1f%%", s.share(n), percent(n, read))})
		}
		return cells
	})
}

// managedHeads are the columns of the managed sections table.
var managedHeads = []string{"captures", "in section", "all", "all by CDN", "some", "some by CDN", "site's own all", "site's own some"}

// managedTable is, per agent, the captures holding a managed section and
// what the section decides of them.
func managedTable(s *surveySummary, agents []reportAgent) *reportTable {
	t := newReportTable("managed", "Captures holding a managed section, per agent (count)", "agent", "wide", 4, plainHeads(managedHeads...))
	return t.agentRows(s, agents, func(as *agentSummary) []reportCell {
		m := &as.managed
		var cells []reportCell
		for i, n := range []int{m.rows, m.group, sumRow(m.pairs["all"]), sumRow(m.pairs["all"]) - m.pairs["all"]["all"],
			sumRow(m.pairs["some"]), m.pairs["some"]["none"], sumColumn(m.pairs, "all"), sumColumn(m.pairs, "some")} {
			cells = append(cells, numberCell(managedHeads[i], n))
		}
		return cells
	})
}

// methodColumns are the columns of the methods table: the last three,
// the captures each reading classes all, some and none, under a heading
// of their own.
var methodColumns = []reportHead{{Head: "compared"}, {Head: "as exact"}, {Head: "more blocked"}, {Head: "less blocked"}, {Head: "uncounted"}, {Head: "undecided"},
	{Group: "classed, exact/method", Head: "all"}, {Group: "classed, exact/method", Head: "some"}, {Group: "classed, exact/method", Head: "none"}}

// methodLabel names a column of the methods table where its heading is
// not shown, as the text summary's table names it.
func methodLabel(c reportHead) string {
	if c.Group != "" {
		return c.Head + " exact/method"
	}
	return c.Head
}

// methodTable is, per agent and method compared, how the method's
// classes differ from the exact reading's.
func methodTable(s *surveySummary, agents []reportAgent, compared []methods.Method) *reportTable {
	t := newReportTable("methods", "Each method's classes against the exact reading, per agent (count)", "agent, method", "wide", 3, methodColumns)
	for i, a := range agents {
		as := &s.perAgent[i]
		for _, method := range compared {
			pairs := as.methods[method]
			d := diff(pairs)
			var cells []reportCell
			for k, n := range []int{d.Compared, d.Same, d.MoreBlocked, d.LessBlocked, d.Uncounted, d.Undecided} {
				cells = append(cells, numberCell(methodLabel(methodColumns[k]), n))
			}
			for k, c := range []string{"all", "some", "none"} {
				cells = append(cells, reportCell{Label: methodLabel(methodColumns[6+k]), Text: fmt.Sprintf("%d/%d", sumRow(pairs[c]), sumColumn(pairs, c))})
			}
			t.Rows = append(t.Rows, reportRow{Name: a.Name, Sub: string(method), Inline: true, Cells: cells})
		}
	}
	return t.done()
}

// rootTable is, per agent, the captures classed some and how a survey
// checking "/" alone reads them.
func rootTable(s *surveySummary, agents []reportAgent) *reportTable {
	heads := []string{"some", "read as none", "read as all", "read otherwise"}
	t := newReportTable("rootonly", "Captures classed some, and how checking / alone reads them (count, share)", "agent", "narrow", len(heads), plainHeads(heads...))
	return t.agentRows(s, agents, func(as *agentSummary) []reportCell {
		return []reportCell{
			s.countCell(heads[0], as.class[robots.ClassSome.String()]),
			s.countCell(heads[1], as.rootNone),
			s.countCell(heads[2], as.rootAll),
			s.countCell(heads[3], as.rootNone+as.rootAll),
		}
	})
}

// usageTable is, per agent, the captures stating a Content-Signal or
// Content-Usage value at "/", yes/no per key, and those with
// path-scoped Content-Usage lines.
func usageTable(s *surveySummary, agents []reportAgent) *reportTable {
	var keys, categories []string
	for k := range prefs.Signals {
		keys = append(keys, prefs.Signals[k].Key)
	}
	for _, c := range prefs.Categories() {
		categories = append(categories, c.Label())
	}
	heads := append(append(append(append([]string{"Content-Signal"}, keys...), "Content-Usage"), categories...), "path lines")
	t := newReportTable("usage", "Captures stating a value at / (count, share), then yes/no per key", "agent", "wide", 3, plainHeads(heads...))
	return t.agentRows(s, agents, func(as *agentSummary) []reportCell {
		cells := []reportCell{s.countCell("Content-Signal", as.signal)}
		for _, k := range keys {
			cells = append(cells, reportCell{Label: "signal " + k, Text: fmt.Sprintf("%d/%d", as.said("signal", k, "yes"), as.said("signal", k, "no"))})
		}
		cells = append(cells, s.countCell("Content-Usage", as.usage))
		for _, k := range categories {
			cells = append(cells, reportCell{Label: "usage " + k, Text: fmt.Sprintf("%d/%d", as.said("usage", k, "yes"), as.said("usage", k, "no"))})
		}
		return append(cells, numberCell("path lines", as.usagePaths))
	})
}

// headGroups returns the first row of the headings of columns: a heading
// per run of columns sharing a group, spanning them, and a column of no
// group alone, its Head written across both rows.
func headGroups(columns []reportHead) []reportHead {
	var groups []reportHead
	for _, c := range columns {
		if n := len(groups); n > 0 && c.Group != "" && groups[n-1].Group == c.Group {
			groups[n-1].Span++
			continue
		}
		g := reportHead{Group: c.Group, Span: 1}
		if c.Group == "" {
			g.Head = c.Head
		}
		groups = append(groups, g)
	}
	return groups
}
