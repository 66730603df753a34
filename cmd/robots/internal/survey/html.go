package survey

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fastrobots/robots/cmd/robots/internal/methods"
	"github.com/fastrobots/robots/crawlers"
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

// reportAgent is an agent as the page names it, with who operates it and
// what the crawler table says of it.
type reportAgent struct {
	Name, Operator string
	Crawler        string
}

// reportFact is a line of the captures table.
type reportFact struct{ Label, Value string }

// reportHead is a table's column heading within a group of columns, or a
// group's heading and the columns it spans.
type reportHead struct {
	Group, Head string
	Span        int
}

// methodNames say which publication each method reads as.
var methodNames = map[methods.Method]string{
	methods.DPI:  `Data Provenance Initiative, "Consent in Crisis" (2024)`,
	methods.CC:   "Common Crawl's robots.txt experiments (2025)",
	methods.IMC:  `"Somesite I Used To Crawl" (IMC 2025)`,
	methods.Root: "/ alone, by Google's parser",
}

// surveyReport is what the template shows.
type surveyReport struct {
	Captures, Errors int
	Shard            string // "K of N", or "" for a whole run
	ShardRest        int    // K-1, the position modulo N of the shard's inputs or captures
	ShardN           int
	ShardByInput     bool // the shards share the inputs, not each input's captures
	Inputs           []string
	Agents           []reportAgent
	Managed          []reportFact // captures holding a section, per CDN
	Methods          []reportFact // the methods compared and what each reads as
	// The tables of figures per agent, and all of them, for the style.
	ClassTable, CauseTable, OwnTable, ManagedTable, RootTable, UsageTable *reportTable
	MethodTable                                                           *reportTable // nil when no method is compared
	Tables                                                                []*reportTable
	Facts                                                                 []reportFact
	Sizes                                                                 []reportFact
	Statuses                                                              []reportFact
	ClassChart                                                            svgChart
	CauseChart                                                            svgChart
	RootChart                                                             svgChart
	UsageChart                                                            *svgChart // nil when no capture states a value for any agent
	StatusChart                                                           *svgChart // nil when no capture was answered
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
	for _, cdn := range slices.Sorted(maps.Keys(s.managed)) {
		r.Managed = append(r.Managed, reportFact{cdn, fmt.Sprintf("%d (%.1f%%)", s.managed[cdn], s.share(s.managed[cdn]))})
	}
	compared := s.comparedMethods()
	for _, m := range compared {
		r.Methods = append(r.Methods, reportFact{string(m), methodNames[m]})
	}
	for _, name := range s.agents {
		a := reportAgent{Name: displayText(name), Operator: surveyOperator(name), Crawler: crawlerText(name)}
		if a.Operator == "" {
			a.Operator = "—"
		}
		r.Agents = append(r.Agents, a)
	}
	r.ClassTable, r.CauseTable, r.OwnTable = classTable(s, r.Agents), causeTable(s, r.Agents), ownTable(s, r.Agents)
	r.ManagedTable, r.RootTable, r.UsageTable = managedTable(s, r.Agents), rootTable(s, r.Agents), usageTable(s, r.Agents)
	r.Tables = []*reportTable{r.ClassTable, r.CauseTable, r.OwnTable, r.ManagedTable, r.RootTable, r.UsageTable}
	if len(compared) > 0 {
		r.MethodTable = methodTable(s, r.Agents, compared)
		r.Tables = append(r.Tables, r.MethodTable)
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
	r.CauseChart = causesChart(s)
	r.RootChart = rootChart(s)
	r.UsageChart = usageChart(s)
	r.StatusChart = statusChart(s)
	return r
}

// crawlerText is what the crawler table says of an agent: its purpose
// and whether its operator says it follows robots.txt; "" for a token
// the table does not hold.
func crawlerText(name string) string {
	c, ok := crawlers.Lookup(name)
	if !ok {
		return ""
	}
	stance := map[crawlers.Robots]string{
		crawlers.Follows:   "follows robots.txt, its operator says",
		crawlers.MayIgnore: "may not follow robots.txt, its operator says",
		crawlers.NotStated: "its operator states nothing of robots.txt",
	}[c.Robots]
	return fmt.Sprintf("purpose: %s; %s", c.Purpose, stance)
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
