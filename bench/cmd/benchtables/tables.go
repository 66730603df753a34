package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Highlight is the library the tables are about: the first column, and
// the one compared with its fastest peer.
const Highlight = "fastrobots"

// LibOrder is the order of the columns: bench.Libs(), fastrobots first
// (TestLibOrderIsBenchLibs keeps the two in step). Every one has a column,
// in the run or not; a library the run has and this list has not comes
// after them.
var LibOrder = []string{
	"fastrobots", "temoto", "temoto-group", "grobotstxt", "slyrz", "samclarke", "benjaminestes",
}

// A Family is a table: the benchmarks that measure one thing, each with
// its variants ("PathologicalScaling/n=1250").
type Family struct {
	Title      string
	Benchmarks []string
}

// Families are the tables, in the order printed. A benchmark of the run in
// none of them is printed in a last table of its own.
var Families = []Family{
	{"Cold path: shop.txt, just fetched", []string{"ShopParse", "ShopResolve", "ShopCold", "ShopCheck"}},
	{"The real crawl: corpus files with crawled URLs", []string{"LongTail", "Crawl"}},
	{"The frontier: 1,000,000 URLs over 10,000 origins, served in turn", []string{"Frontier"}},
	{"Checks on realistic.txt", []string{"CheckStar", "CheckNamed", "Parse", "Compile", "OneShot"}},
	{"Pathological rules", []string{"Pathological", "PathologicalScaling"}},
	{"The whole corpus", []string{"CorpusParse", "Corpus", "CorpusAll"}},
	{"Memory", []string{"Memory"}},
	{"temoto's API as crawlers call it: temoto v1.1.2 and its drop-in, compat/temoto", []string{"TemotoCompat", "TemotoCompatCrawl"}},
	{"The Checker's origin cache against a cache library, otter/v2: 1,000 origins × 8 URLs, warm", []string{"OriginCache", "OriginCacheMemory"}},
}

// Columns returns the libraries in column order: LibOrder, then the run's
// other libraries in order of appearance.
func Columns(r *Run) []string {
	cols := slices.Clone(LibOrder)
	for _, lib := range r.Libs {
		if !slices.Contains(cols, lib) {
			cols = append(cols, lib)
		}
	}
	return cols
}

// familyColumns returns cols without the libraries outside LibOrder that
// have no result in benches: such a library (compat/temoto, measured
// beside temoto alone) gets a column in its own table only.
func familyColumns(r *Run, cols, benches []string) []string {
	return slices.DeleteFunc(slices.Clone(cols), func(lib string) bool {
		if slices.Contains(LibOrder, lib) {
			return false
		}
		for _, b := range benches {
			for _, unit := range r.Units[b] {
				if _, ok := r.Median(b, lib, unit); ok {
					return false
				}
			}
		}
		return true
	})
}

// LowerIsBetter reports whether less of unit is better: true for all but
// rates (MB/s, files/s, ...).
func LowerIsBetter(unit string) bool { return !strings.HasSuffix(unit, "/s") }

// BestPeer returns the library other than Highlight with the best median
// of unit in bench (the lowest, or for a rate the highest; the first in
// column order on a tie), and false when no peer has one. For a time, it
// is the fastest peer.
func BestPeer(r *Run, cols []string, bench, unit string) (lib string, v float64, ok bool) {
	for _, c := range cols {
		if c == Highlight {
			continue
		}
		x, has := r.Median(bench, c, unit)
		if has && (!ok || (LowerIsBetter(unit) && x < v) || (!LowerIsBetter(unit) && x > v)) {
			lib, v, ok = c, x, true
		}
	}
	return lib, v, ok
}

// WriteFamilies writes one table per family, then one for the run's
// benchmarks that no family names.
func WriteFamilies(w io.Writer, r *Run) {
	cols := Columns(r)
	named := map[string]bool{}
	for _, f := range Families {
		for _, b := range f.Benchmarks {
			named[b] = true
		}
		writeFamily(w, r, cols, f)
	}
	other := Family{Title: "Other benchmarks"}
	for _, b := range r.Benchmarks {
		if !named[FamilyOf(b)] && !slices.Contains(other.Benchmarks, FamilyOf(b)) {
			other.Benchmarks = append(other.Benchmarks, FamilyOf(b))
		}
	}
	if len(other.Benchmarks) > 0 {
		writeFamily(w, r, cols, other)
	}
}

// writeFamily writes f's table: a row per benchmark (variants included)
// and unit, a column per library, and for each time the fastest peer and
// fastrobots' ratio to it. The notes the benchmarks logged follow.
func writeFamily(w io.Writer, r *Run, cols []string, f Family) {
	fmt.Fprintf(w, "### %s\n\n", f.Title)
	var benches []string
	for _, b := range r.Benchmarks {
		if slices.Contains(f.Benchmarks, FamilyOf(b)) {
			benches = append(benches, b)
		}
	}
	if len(benches) == 0 {
		fmt.Fprintf(w, "No results: the run has none of %s.\n\n", strings.Join(f.Benchmarks, ", "))
		return
	}
	cols = familyColumns(r, cols, benches)
	header := append(append([]string{"benchmark", "unit"}, cols...), "fastest peer", Highlight+" ÷ fastest peer")
	writeRow(w, header)
	writeRow(w, slices.Repeat([]string{"---"}, len(header)))
	for _, b := range benches {
		for i, unit := range r.Units[b] {
			row := []string{"", unit}
			if i == 0 {
				row[0] = "`" + b + "`"
			}
			for _, lib := range cols {
				row = append(row, cell(r, b, lib, unit))
			}
			writeRow(w, append(row, fastestCells(r, cols, b, unit)...))
		}
	}
	fmt.Fprintln(w)
	writeNotes(w, r, f)
}

// cell is lib's median of unit in bench, formatted, or Missing.
func cell(r *Run, bench, lib, unit string) string {
	v, ok := r.Median(bench, lib, unit)
	if !ok {
		return Missing
	}
	return FormatValue(unit, v)
}

// fastestCells are the last two cells of a row: the fastest peer and
// Highlight's ratio to it, for a time; empty for any other unit.
func fastestCells(r *Run, cols []string, bench, unit string) []string {
	if !IsTime(unit) {
		return []string{"", ""}
	}
	lib, peer, ok := BestPeer(r, cols, bench, unit)
	if !ok {
		return []string{Missing, Missing}
	}
	mine, ok := r.Median(bench, Highlight, unit)
	if !ok || peer == 0 {
		return []string{lib, Missing}
	}
	return []string{lib, FormatRatio(mine / peer)}
}

// writeNotes lists what the family's benchmarks logged, skipped with or
// failed with.
func writeNotes(w io.Writer, r *Run, f Family) {
	listed := false
	for _, n := range r.Notes {
		if !slices.Contains(f.Benchmarks, FamilyOf(n.Bench)) {
			continue
		}
		listed = true
		fmt.Fprintf(w, "- `%s/%s`: %s\n", n.Bench, n.Lib, escapeCell(noteText(n)))
	}
	if listed {
		fmt.Fprintln(w)
	}
}

// noteText is a note as listed: a skip or failure says so.
func noteText(n Note) string {
	verb := map[string]string{"SKIP": "skipped", "FAIL": "failed"}[n.Kind]
	switch {
	case verb == "" || strings.HasPrefix(n.Text, verb):
		return n.Text
	case n.Text == "":
		return verb
	}
	return verb + ": " + n.Text
}

// writeRow writes one Markdown table row.
func writeRow(w io.Writer, cells []string) {
	for i, c := range cells {
		cells[i] = escapeCell(c)
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

// escapeCell keeps a cell on its line and in its column.
func escapeCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}
