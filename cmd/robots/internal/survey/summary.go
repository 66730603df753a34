package survey

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	prefs "github.com/fastrobots/robots/usage"
)

// surveyClasses are the classes in the order the summary shows them.
var surveyClasses = []robots.Class{robots.ClassAll, robots.ClassSome, robots.ClassNone, robots.ClassUndecided}

// surveySummary counts what the rows say, as they are written. Its memory
// does not grow with the number of captures: sizes up to the limit Google
// reads are counted by value, which gives exact quantiles, and larger
// ones together, with the largest kept.
type surveySummary struct {
	agents    []string
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
	perAgent []agentSummary
}

// agentSummary counts one agent's rows.
type agentSummary struct {
	class map[string]int // by Class.String()
	// rootNone and rootAll count the hosts classed some that checking "/"
	// alone reads as none (/ allowed) or as all (/ disallowed).
	rootNone, rootAll int
	signal            int // rows with some Content-Signal value at /
	usage             int // rows with some Content-Usage value at /
	usagePaths        int
	values            map[string]int // "signal:ai-train=no", "usage:train-ai=yes"
}

func newSurveySummary(agents []string) *surveySummary {
	s := &surveySummary{agents: agents, sizes: make([]int, cli.MaxInputBytes+1), statuses: map[string]int{}, perAgent: make([]agentSummary, len(agents))}
	for i := range s.perAgent {
		s.perAgent[i] = agentSummary{class: map[string]int{}, values: map[string]int{}}
	}
	return s
}

// add counts one capture's rows.
func (s *surveySummary) add(res *surveyResult) {
	if res.err != nil {
		s.errors++
		s.skipped += res.err.Skipped
		return
	}
	row := res.row
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
	if row.Bytes <= cli.MaxInputBytes {
		s.sizes[row.Bytes]++
	} else {
		s.over++
	}
	s.maxSize = max(s.maxSize, row.Bytes)
	for i := range res.agentRs {
		a, as := &res.agentRs[i], &s.perAgent[i]
		as.class[a.Class]++
		if a.Class == robots.ClassSome.String() {
			if a.RootAllowed {
				as.rootNone++
			} else {
				as.rootAll++
			}
		}
		if a.signalStated {
			as.signal++
		}
		if a.usageStated {
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
	}
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

// write prints the summary. The per-agent tables have one line per agent,
// its name first and counts as plain integers, so that a script can read
// them.
func (s *surveySummary) write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "robots survey: %d captures answered, %d errors\n", s.captures, s.errors)
	fmt.Fprintf(&b, "sizes (bytes): median %s, p90 %s, max %d, total %d\n", s.sizeText(0.5), s.sizeText(0.9), s.maxSize, s.bytes)
	fmt.Fprintf(&b, "html: %d pages served as robots.txt (%.1f%%)\n", s.html, s.share(s.html))
	fmt.Fprintf(&b, "truncated: %d cut at 500 KiB (%.1f%%)\n", s.truncated, s.share(s.truncated))
	var statuses []string
	for _, k := range s.statusKeys() {
		statuses = append(statuses, fmt.Sprintf("%s %d", k, s.statuses[k]))
	}
	fmt.Fprintf(&b, "statuses (class, Google's policy, captures): %s\n", strings.Join(statuses, ", "))
	fmt.Fprintf(&b, "records skipped: %d (WARC records that are not robots.txt responses)\n", s.skipped)

	width := len("agent")
	for _, a := range s.agents {
		width = max(width, len(a))
	}
	fmt.Fprintf(&b, "\nclass over every path, per agent (captures, share of %d); /-only: hosts classed some that checking / alone reads as none or all\n", s.captures)
	fmt.Fprintf(&b, "%-*s", width, "agent")
	for _, c := range surveyClasses {
		fmt.Fprintf(&b, " %18s", c)
	}
	fmt.Fprintf(&b, " %18s %8s %8s  operator\n", "/-only otherwise", "as none", "as all")
	for i, a := range s.agents {
		as := &s.perAgent[i]
		fmt.Fprintf(&b, "%-*s", width, a)
		for _, c := range surveyClasses {
			n := as.class[c.String()]
			fmt.Fprintf(&b, " %9d (%5.1f%%)", n, s.share(n))
		}
		other := as.rootNone + as.rootAll
		fmt.Fprintf(&b, " %9d (%5.1f%%) %8d %8d  %s\n", other, s.share(other), as.rootNone, as.rootAll, surveyOperator(a))
	}

	fmt.Fprintf(&b, "\nContent-Signal and Content-Usage at /, per agent (captures stating any; then yes/no per key)\n")
	fmt.Fprintf(&b, "%-*s %18s", width, "agent", "signal")
	for k := range prefs.Signals {
		fmt.Fprintf(&b, " %13s", prefs.Signals[k].Key)
	}
	fmt.Fprintf(&b, " %18s", "usage")
	for _, c := range prefs.Categories() {
		fmt.Fprintf(&b, " %13s", c.Label())
	}
	fmt.Fprintf(&b, " %11s\n", "usage-paths")
	for i, a := range s.agents {
		as := &s.perAgent[i]
		fmt.Fprintf(&b, "%-*s %9d (%5.1f%%)", width, a, as.signal, s.share(as.signal))
		for k := range prefs.Signals {
			key := prefs.Signals[k].Key
			fmt.Fprintf(&b, " %13s", fmt.Sprintf("%d/%d", as.said("signal", key, "yes"), as.said("signal", key, "no")))
		}
		fmt.Fprintf(&b, " %9d (%5.1f%%)", as.usage, s.share(as.usage))
		for _, c := range prefs.Categories() {
			fmt.Fprintf(&b, " %13s", fmt.Sprintf("%d/%d", as.said("usage", c.Label(), "yes"), as.said("usage", c.Label(), "no")))
		}
		fmt.Fprintf(&b, " %11d\n", as.usagePaths)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
