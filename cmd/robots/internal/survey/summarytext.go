package survey

import (
	"fmt"
	"io"
	"slices"
	"strings"

	prefs "github.com/fastrobots/robots/usage"
)

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
	var sections []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range s.managed {
			if !yield(k) {
				return
			}
		}
	}) {
		sections = append(sections, fmt.Sprintf("%s %d", k, s.managed[k]))
	}
	if len(sections) == 0 {
		sections = []string{"none"}
	}
	fmt.Fprintf(&b, "managed sections (CDN, captures): %s\n", strings.Join(sections, ", "))

	width := len("agent")
	for _, a := range s.agents {
		width = max(width, len(a))
	}
	s.writeClasses(&b, width)
	s.writeSources(&b, width)
	s.writeOwn(&b, width)
	s.writeManaged(&b, width)
	s.writeMethods(&b, width)
	s.writeUsage(&b, width)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeClasses prints the classes over every path, every source
// together.
func (s *surveySummary) writeClasses(b *strings.Builder, width int) {
	fmt.Fprintf(b, "\nclass over every path, per agent (captures, share of %d; unresolved redirects are in no class: see the causes); /-only: hosts classed some that checking / alone reads as none or all\n", s.captures)
	fmt.Fprintf(b, "%-*s", width, "agent")
	for _, c := range surveyClasses {
		fmt.Fprintf(b, " %18s", c)
	}
	fmt.Fprintf(b, " %18s %8s %8s  operator\n", "/-only otherwise", "as none", "as all")
	for i, a := range s.agents {
		as := &s.perAgent[i]
		fmt.Fprintf(b, "%-*s", width, a)
		for _, c := range surveyClasses {
			n := as.class[c.String()]
			fmt.Fprintf(b, " %9d (%5.1f%%)", n, s.share(n))
		}
		other := as.rootNone + as.rootAll
		fmt.Fprintf(b, " %9d (%5.1f%%) %8d %8d  %s\n", other, s.share(other), as.rootNone, as.rootAll, surveyOperator(a))
	}
}

// surveyCauseColumns are the columns of the causes table: a source and a
// class, the rule-made ones first.
var surveyCauseColumns = []struct{ source, class, head string }{
	{sourceNamed, "all", "named:all"},
	{sourceStar, "all", "star:all"},
	{sourceNamed, "some", "named:some"},
	{sourceStar, "some", "star:some"},
	{sourceNamed, "none", "named:none"},
	{sourceStar, "none", "star:none"},
	{sourceNoGroup, "none", "nogroup"},
	{sourceNamed, "undecided", "named:undec"},
	{sourceStar, "undecided", "star:undec"},
	{sourceStatus, "all", "status:all"},
	{sourceStatus, "none", "status:none"},
	{sourceUnresolved, surveyUnresolved, "unresolved"},
}

// writeSources prints, per agent, the captures fully (all), partly (some)
// and not (none) blocked, by where the class comes from.
func (s *surveySummary) writeSources(b *strings.Builder, width int) {
	fmt.Fprintf(b, "\ncauses per agent: captures by source and class (fully blocked = all, partly = some, not = none); "+
		"named and star: a group naming the agent or the '*' groups decide; nogroup: rules read, no group applies; "+
		"status: the status policy decides (4xx allow-all, 429 and 5xx disallow-all); unresolved: a redirect whose target this run cannot see\n")
	fmt.Fprintf(b, "%-*s", width, "agent")
	for _, c := range surveyCauseColumns {
		fmt.Fprintf(b, " %11s", c.head)
	}
	b.WriteString("\n")
	for i, a := range s.agents {
		as := &s.perAgent[i]
		fmt.Fprintf(b, "%-*s", width, a)
		for _, c := range surveyCauseColumns {
			fmt.Fprintf(b, " %11d", as.sources[c.source][c.class])
		}
		b.WriteString("\n")
	}
}

// writeOwn prints, per agent, the classes the sites' own rules give: the
// captures whose rules were read, a managed section removed.
func (s *surveySummary) writeOwn(b *strings.Builder, width int) {
	fmt.Fprintf(b, "\nthe sites' own rules, per agent: captures whose rules were read (named, star, nogroup), by the class their rules give once any managed section is removed (class_site, else class); shares of the captures answered and of those read\n")
	fmt.Fprintf(b, "%-*s %9s", width, "agent", "read")
	for _, c := range surveyClasses {
		fmt.Fprintf(b, " %27s", c)
	}
	b.WriteString("\n")
	for i, a := range s.agents {
		as := &s.perAgent[i]
		read := 0
		for _, n := range as.own {
			read += n
		}
		fmt.Fprintf(b, "%-*s %9d", width, a, read)
		for _, c := range surveyClasses {
			n := as.own[c.String()]
			fmt.Fprintf(b, " %9d (%5.1f%%, %5.1f%%)", n, s.share(n), percent(n, read))
		}
		b.WriteString("\n")
	}
}

// percent is n over of, in percent; 0 when of is.
func percent(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

// writeManaged prints, per agent, what the managed sections do: the rows
// of captures holding one, those whose groups all lie in it, and the
// blocks the section makes that the site's own rules do not.
func (s *surveySummary) writeManaged(b *strings.Builder, width int) {
	fmt.Fprintf(b, "\nmanaged sections, per agent: captures holding one; in section: the agent's groups all lie in it; "+
		"all/some: the class with the section; by CDN: all where the site's own rules are not all, some where they are none; "+
		"site all/some: the site's own rules (class_site)\n")
	fmt.Fprintf(b, "%-*s %9s %10s %9s %9s %9s %9s %9s %9s\n", width, "agent", "captures", "in section", "all", "by CDN", "some", "by CDN", "site all", "site some")
	for i, a := range s.agents {
		m := &s.perAgent[i].managed
		fmt.Fprintf(b, "%-*s %9d %10d %9d %9d %9d %9d %9d %9d\n", width, a, m.rows, m.group,
			sumRow(m.pairs["all"]), sumRow(m.pairs["all"])-m.pairs["all"]["all"],
			sumRow(m.pairs["some"]), m.pairs["some"]["none"],
			sumColumn(m.pairs, "all"), sumColumn(m.pairs, "some"))
	}
}

// sumRow is the sum of row's counts.
func sumRow(row map[string]int) int {
	n := 0
	for _, v := range row {
		n += v
	}
	return n
}

// sumColumn is the sum over pairs of the counts of column.
func sumColumn(pairs map[string]map[string]int, column string) int {
	n := 0
	for _, row := range pairs {
		n += row[column]
	}
	return n
}

// writeMethods prints, per agent and method compared, how the method's
// classes differ from the exact ones.
func (s *surveySummary) writeMethods(b *strings.Builder, width int) {
	ms := s.comparedMethods()
	if len(ms) == 0 {
		return
	}
	fmt.Fprintf(b, "\npublished methods against the exact reading, per agent (captures whose rules were read): as exact; more or less blocked: "+
		"further along none, some, all or less far; uncounted: left out by the method; undecided: no exact class; then each class's captures, exact and by the method\n")
	fmt.Fprintf(b, "%-*s %6s %9s %9s %9s %9s %9s %9s %19s %19s %19s\n", width, "agent", "method", "compared", "as exact", "more", "less", "uncounted", "undecided",
		"all exact/method", "some exact/method", "none exact/method")
	for i, a := range s.agents {
		as := &s.perAgent[i]
		for _, m := range ms {
			pairs := as.methods[m]
			d := diff(pairs)
			fmt.Fprintf(b, "%-*s %6s %9d %9d %9d %9d %9d %9d", width, a, m, d.Compared, d.Same, d.MoreBlocked, d.LessBlocked, d.Uncounted, d.Undecided)
			for _, c := range []string{"all", "some", "none"} {
				fmt.Fprintf(b, " %19s", fmt.Sprintf("%d/%d", sumRow(pairs[c]), sumColumn(pairs, c)))
			}
			b.WriteString("\n")
		}
	}
}

// writeUsage prints the Content-Signal and Content-Usage values at "/".
func (s *surveySummary) writeUsage(b *strings.Builder, width int) {
	fmt.Fprintf(b, "\nContent-Signal and Content-Usage at /, per agent (captures stating any; then yes/no per key)\n")
	fmt.Fprintf(b, "%-*s %18s", width, "agent", "signal")
	for k := range prefs.Signals {
		fmt.Fprintf(b, " %13s", prefs.Signals[k].Key)
	}
	fmt.Fprintf(b, " %18s", "usage")
	for _, c := range prefs.Categories() {
		fmt.Fprintf(b, " %13s", c.Label())
	}
	fmt.Fprintf(b, " %11s\n", "usage-paths")
	for i, a := range s.agents {
		as := &s.perAgent[i]
		fmt.Fprintf(b, "%-*s %9d (%5.1f%%)", width, a, as.signal, s.share(as.signal))
		for k := range prefs.Signals {
			key := prefs.Signals[k].Key
			fmt.Fprintf(b, " %13s", fmt.Sprintf("%d/%d", as.said("signal", key, "yes"), as.said("signal", key, "no")))
		}
		fmt.Fprintf(b, " %9d (%5.1f%%)", as.usage, s.share(as.usage))
		for _, c := range prefs.Categories() {
			fmt.Fprintf(b, " %13s", fmt.Sprintf("%d/%d", as.said("usage", c.Label(), "yes"), as.said("usage", c.Label(), "no")))
		}
		fmt.Fprintf(b, " %11d\n", as.usagePaths)
	}
}
