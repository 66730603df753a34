package main

import (
	"math"
	"strconv"
	"strings"
)

// Missing is what a table shows where the run has no figure.
const Missing = "—"

// IsTime reports whether unit is a time per something (ns/op, ns/file,
// ns/B, ns/first-check, ...), of which less is better.
func IsTime(unit string) bool { return strings.HasPrefix(unit, "ns/") }

// IsBytes reports whether unit is a size: B/op, B/file-median, scan-B, ...
func IsBytes(unit string) bool {
	return strings.HasPrefix(unit, "B/") || strings.HasSuffix(unit, "-B") || unit == "B"
}

// FormatValue formats a median in its unit: times with the unit that
// leaves 1 to 999 ("46.9 ns", "58.4 µs", "4.25 s"), sizes in bytes or
// binary multiples ("560 B", "22 KiB", "1.34 GiB"), anything else as a
// number (FormatNumber). Three significant digits: the runs of a shared
// machine do not agree on more.
func FormatValue(unit string, v float64) string {
	switch {
	case IsTime(unit):
		return scaled(v, 1000, []string{"ns", "µs", "ms", "s"})
	case IsBytes(unit):
		return scaled(v, 1024, []string{"B", "KiB", "MiB", "GiB", "TiB"})
	}
	return FormatNumber(v)
}

// scaled divides v by step until it is under step or the units run out,
// and prints it with three significant digits and the unit reached.
func scaled(v, step float64, units []string) string {
	i := 0
	for math.Abs(v) >= step && i < len(units)-1 {
		v /= step
		i++
	}
	if i == 0 && v == math.Trunc(v) {
		return group(v) + " " + units[0]
	}
	if r := roundSig(v, 3); math.Abs(r) >= step && i < len(units)-1 {
		// 999.7 ns rounds to 1 µs, not to 1000 ns.
		return sig3(r/step) + " " + units[i+1]
	}
	return sig3(v) + " " + units[i]
}

// FormatNumber prints whole numbers and numbers of 100 or more rounded to
// a whole number with thousands separators ("111,424"), others with three
// significant digits ("17.4", "0.48").
func FormatNumber(v float64) string {
	if v == math.Trunc(v) || math.Abs(v) >= 100 {
		return group(v)
	}
	return sig3(v)
}

// FormatRatio prints a ratio with two significant digits, or as a whole
// number from 10 up: "0.31×", "0.0058×", "1.4×", "12×".
func FormatRatio(r float64) string {
	if r >= 10 {
		return strconv.FormatFloat(math.Round(r), 'f', 0, 64) + "×"
	}
	return strconv.FormatFloat(roundSig(r, 2), 'f', -1, 64) + "×"
}

// sig3 prints v with three significant digits, trailing zeros dropped.
func sig3(v float64) string {
	if math.Abs(v) >= 1000 {
		return group(v)
	}
	return strconv.FormatFloat(roundSig(v, 3), 'f', -1, 64)
}

// roundSig rounds v to n significant digits.
func roundSig(v float64, n int) float64 {
	if v == 0 {
		return 0
	}
	decimals := max(0, n-1-int(math.Floor(math.Log10(math.Abs(v)))))
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}

// group rounds v to a whole number and separates its thousands with commas.
func group(v float64) string {
	s := strconv.FormatFloat(math.Abs(math.Round(v)), 'f', 0, 64)
	var b strings.Builder
	if v < 0 && s != "0" {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
