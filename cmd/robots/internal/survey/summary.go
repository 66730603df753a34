package survey

import (
	"fmt"
	"maps"
	"slices"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/methods"
	prefs "github.com/fastrobots/robots/usage"
)

// surveyClasses are the classes in the order the summary shows them.
var surveyClasses = []robots.Class{robots.ClassAll, robots.ClassSome, robots.ClassNone, robots.ClassUndecided}

// surveySummary counts what the rows say. It is the one place where the
// summary's figures are counted: a run adds its rows as they are written
// (add), and summarize adds the rows it reads back from a run's files
// (addCapture, addError, addAgent), so that both give the same summary
// of the same rows. Its memory does not grow with the number of captures:
// sizes up to the limit Google reads are counted by value, which gives
// exact quantiles, and larger ones together, with the largest kept.
type surveySummary struct {
	agents []string
	index  map[string]int // position of each agent in agents
	// inputs are the inputs the rows name, in the order first met.
	inputs    []string
	inputSeen map[string]bool
	captures  int // answered, error rows apart
	errors    int
	html      int
	truncated int
	bytes     int64
	sizes     []int // sizes[n]: captures of n bytes, n ≤ cli.MaxInputBytes
	over      int   // captures of more than cli.MaxInputBytes bytes
	maxSize   int64
	// statuses counts the captures by status class and policy ("2xx
	// parsed"); skipped the WARC records that were not robots.txt
	// responses.
	statuses map[string]int
	skipped  int
	// managed counts the captures holding a managed section, by CDN.
	managed  map[string]int
	perAgent []agentSummary
}

// agentSummary counts one agent's rows.
type agentSummary struct {
	class map[string]int // by class, every source together
	// sources counts the rows by source and class: sources[source][class].
	sources map[string]map[string]int
	// own counts the rows whose rules were read (named, star, nogroup) by
	// the class the site's own rules give: class_site where the capture
	// holds a managed section, class elsewhere.
	own map[string]int
	// rootNone and rootAll count the hosts classed some that checking "/"
	// alone reads as none (/ allowed) or as all (/ disallowed).
	rootNone, rootAll int
	signal            int // rows with some Content-Signal value at /
	usage             int // rows with some Content-Usage value at /
	usagePaths        int
	values            map[string]int // "signal:ai-train=no", "usage:train-ai=yes"
	// managed counts the rows of captures holding a managed section.
	managed managedSummary
	// methods counts, per method compared, its class against the exact
	// one: methods[m][exact][method's].
	methods map[methods.Method]map[string]map[string]int
}

// managedSummary counts an agent's rows of captures that hold a managed
// section.
type managedSummary struct {
	rows  int // rows with a class_site
	group int // rows whose groups all lie in the section (managed_group)
	// pairs counts them by class and class_site: pairs[class][class_site].
	pairs map[string]map[string]int
	// blocks counts, by source then class, the rows the section blocks
	// more than the site's own rules do (managedBlock), so that the page
	// can set the section's blocks apart from the named and '*' ones.
	blocks map[string]map[string]int
}

// managedBlock reports whether a row of a capture holding a managed
// section is blocked by the section more than by the site's own rules:
// classed all where class_site is not all, or some where class_site is
// none. These are the summary's "by CDN" counts.
func managedBlock(class, classSite string) bool {
	return class == "all" && classSite != "all" || class == "some" && classSite == "none"
}

func newSurveySummary(agents []string) *surveySummary {
	s := &surveySummary{index: map[string]int{}, inputSeen: map[string]bool{}, sizes: make([]int, cli.MaxInputBytes+1), statuses: map[string]int{}, managed: map[string]int{}}
	for _, a := range agents {
		s.agentIndex(a)
	}
	return s
}

// agentIndex returns the position of agent among the summary's agents,
// adding it after the others when it is new.
func (s *surveySummary) agentIndex(agent string) int {
	if i, ok := s.index[agent]; ok {
		return i
	}
	s.index[agent] = len(s.agents)
	s.agents = append(s.agents, agent)
	s.perAgent = append(s.perAgent, agentSummary{class: map[string]int{}, sources: map[string]map[string]int{}, own: map[string]int{},
		values: map[string]int{}, managed: managedSummary{pairs: map[string]map[string]int{}, blocks: map[string]map[string]int{}}, methods: map[methods.Method]map[string]map[string]int{}})
	return len(s.agents) - 1
}

// add counts one capture's rows, as a run writes them: its agent rows in
// the order of s.agents.
func (s *surveySummary) add(res *surveyResult) {
	if res.err != nil {
		s.addError(res.err)
		return
	}
	s.addCapture(res.row)
	for i := range res.agentRs {
		s.addAgent(i, &res.agentRs[i])
	}
}

// addError counts an error row.
func (s *surveySummary) addError(e *errorRow) {
	s.addInput(e.Input)
	s.errors++
	s.skipped += e.Skipped
}

// addCapture counts a capture row.
func (s *surveySummary) addCapture(row *captureRow) {
	s.addInput(row.Input)
	s.captures++
	s.skipped += row.Skipped
	s.statuses[fmt.Sprintf("%dxx %s", row.Status/100, row.Policy)]++
	s.bytes += row.Bytes
	if row.HTML {
		s.html++
	}
	if row.Truncated {
		s.truncated++
	}
	if row.Bytes >= 0 && row.Bytes <= cli.MaxInputBytes {
		s.sizes[row.Bytes]++
	} else {
		s.over++
	}
	s.maxSize = max(s.maxSize, row.Bytes)
	if row.Managed != "" {
		s.managed[row.Managed]++
	}
}

// addInput notes an input a row names.
func (s *surveySummary) addInput(in string) {
	if !s.inputSeen[in] {
		s.inputSeen[in] = true
		s.inputs = append(s.inputs, in)
	}
}

// addAgent counts an agent row of the agent at position i.
func (s *surveySummary) addAgent(i int, a *agentRow) {
	as := &s.perAgent[i]
	as.class[a.Class]++
	bySource := as.sources[a.Source]
	if bySource == nil {
		bySource = map[string]int{}
		as.sources[a.Source] = bySource
	}
	bySource[a.Class]++
	switch a.Source {
	case sourceNamed, sourceStar, sourceNoGroup:
		if a.ClassSite != "" {
			as.own[a.ClassSite]++
		} else {
			as.own[a.Class]++
		}
	}
	if a.Class == robots.ClassSome.String() {
		if a.RootAllowed {
			as.rootNone++
		} else {
			as.rootAll++
		}
	}
	if signalStated(a.Signal) {
		as.signal++
	}
	if len(a.Usage) > 0 {
		as.usage++
	}
	if a.UsagePaths {
		as.usagePaths++
	}
	for k, v := range a.Signal {
		as.values["signal:"+k+"="+v]++
	}
	for k, v := range a.Usage {
		as.values["usage:"+k+"="+v]++
	}
	if a.ClassSite != "" {
		as.managed.rows++
		if a.ManagedGroup {
			as.managed.group++
		}
		count2(as.managed.pairs, a.Class, a.ClassSite)
		if managedBlock(a.Class, a.ClassSite) {
			count2(as.managed.blocks, a.Source, a.Class)
		}
	}
	for _, m := range methods.Methods() {
		if c := a.method(m); c != "" {
			if as.methods[m] == nil {
				as.methods[m] = map[string]map[string]int{}
			}
			count2(as.methods[m], a.Class, c)
		}
	}
}

// count2 adds one to m[a][b].
func count2(m map[string]map[string]int, a, b string) {
	if m[a] == nil {
		m[a] = map[string]int{}
	}
	m[a][b]++
}

// signalStated reports whether a row's Content-Signal values state one
// of the yes/no keys (search, ai-input, ai-train): a use level alone
// states none of them.
func signalStated(signal map[string]string) bool {
	for k := range prefs.Signals {
		if signal[prefs.Signals[k].Key] != "" {
			return true
		}
	}
	return false
}

// quantile returns the size at rank ceil(q·n) of the answered captures
// (the nearest-rank definition), and false when it lies past
// cli.MaxInputBytes, where sizes are not kept one by one.
func (s *surveySummary) quantile(q float64) (int64, bool) {
	if s.captures == 0 {
		return 0, true
	}
	rank := int(q*float64(s.captures) + 0.999999999)
	rank = max(1, min(rank, s.captures))
	seen := 0
	for n, c := range s.sizes {
		seen += c
		if seen >= rank {
			return int64(n), true
		}
	}
	return 0, false
}

// sizeText is the quantile q of the sizes as the summary writes it: a
// number of bytes, or "over 512000" when it lies past the sizes kept one
// by one.
func (s *surveySummary) sizeText(q float64) string {
	if n, ok := s.quantile(q); ok {
		return fmt.Sprintf("%d", n)
	}
	return fmt.Sprintf("over %d", cli.MaxInputBytes)
}

// statusKeys returns the status classes and policies counted ("2xx
// parsed"), sorted, the order in which the summary lists them.
func (s *surveySummary) statusKeys() []string {
	return slices.Sorted(maps.Keys(s.statuses))
}

// said counts the rows that state value for key at "/": kind is "signal"
// for a Content-Signal key, "usage" for a Content-Usage category.
func (as *agentSummary) said(kind, key, value string) int {
	return as.values[kind+":"+key+"="+value]
}

// share is n over the answered captures, in percent.
func (s *surveySummary) share(n int) float64 {
	if s.captures == 0 {
		return 0
	}
	return 100 * float64(n) / float64(s.captures)
}

// classRank orders the classes from the least blocked: none, some, all.
// Others (undecided, uncounted, unresolved) have no rank.
func classRank(c string) (int, bool) {
	switch c {
	case "none":
		return 0, true
	case "some":
		return 1, true
	case "all":
		return 2, true
	}
	return 0, false
}

// methodDiff is how one method's classes of an agent's rows compare with
// the exact ones.
type methodDiff struct {
	Compared    int `json:"compared"`     // rows the method classed
	Same        int `json:"same"`         // the exact class
	MoreBlocked int `json:"more_blocked"` // further along none, some, all than the exact class
	LessBlocked int `json:"less_blocked"` // less far
	Uncounted   int `json:"uncounted"`    // left out of the method's counts
	Undecided   int `json:"undecided"`    // the exact class is undecided: no direction
}

// diff sums pairs[exact][method's] into a methodDiff.
func diff(pairs map[string]map[string]int) methodDiff {
	var d methodDiff
	for exact, byMethod := range pairs {
		for got, n := range byMethod {
			d.Compared += n
			e, eok := classRank(exact)
			g, gok := classRank(got)
			switch {
			case got == string(methods.Uncounted):
				d.Uncounted += n
			case !eok:
				d.Undecided += n
			case exact == got:
				d.Same += n
			case gok && g > e:
				d.MoreBlocked += n
			case gok:
				d.LessBlocked += n
			}
		}
	}
	return d
}

// comparedMethods returns the methods some row of the summary was
// classed by, in the order of methods.Methods.
func (s *surveySummary) comparedMethods() []methods.Method {
	var out []methods.Method
	for _, m := range methods.Methods() {
		for i := range s.perAgent {
			if len(s.perAgent[i].methods[m]) > 0 {
				out = append(out, m)
				break
			}
		}
	}
	return out
}
