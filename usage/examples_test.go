package usage

import (
	"bufio"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// examplesFile holds every example of the drafts and of Cloudflare's
// documentation, with the meaning each must have.
const examplesFile = "../testdata/usage/examples.txt"

// TestExamples checks every single-line record of examplesFile; the
// file's header explains the records. Its "file" records are whole
// robots.txt files, which the robots package's TestUsageExamples runs
// through the real parser and Decide.
func TestExamples(t *testing.T) {
	f, err := os.Open(examplesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, source, checks := 0, "", 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "@source "):
			source = strings.TrimPrefix(line, "@source ")
		case strings.HasPrefix(line, "file "):
			skipFile(t, sc, &n, source+": "+strings.TrimPrefix(line, "file "))
		default:
			kind, input, expect := splitRecord(t, n, line)
			name := source + ": " + kind + " " + strconv.Quote(input)
			checkValue(t, name, kind, input, parseExpect(t, n, expect))
			checks++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checks < 30 {
		t.Errorf("%d value checks read from %s, want the whole file", checks, examplesFile)
	}
}

// splitRecord cuts "kind input => expect"; input may be empty.
func splitRecord(t *testing.T, n int, line string) (kind, input, expect string) {
	t.Helper()
	i := strings.LastIndex(line, " => ")
	if i < 0 {
		t.Fatalf("%s:%d: no \" => \" in %q", examplesFile, n, line)
	}
	kind, input, _ = strings.Cut(line[:i], " ")
	return kind, input, line[i+4:]
}

// parseExpect reads "name=value ..." into a map.
func parseExpect(t *testing.T, n int, s string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			t.Fatalf("%s:%d: %q is not name=value", examplesFile, n, f)
		}
		m[k] = v
	}
	return m
}

// checkValue checks one single-line record.
func checkValue(t *testing.T, name, kind, input string, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	switch kind {
	case "pref", "header":
		var p Preference
		var ok bool
		if kind == "pref" {
			p, ok = ParsePreference(input)
		} else {
			p, ok = ParseHeader(input)
		}
		putPreference(got, p, ok)
	case "line":
		path, p, ok := ParseContentUsage(input)
		putPreference(got, p, ok)
		got["path"] = path
	case "signal":
		putSignal(got, ParseContentSignal(input))
	default:
		t.Fatalf("%s: unknown record kind %q", name, kind)
	}
	compare(t, name, got, want)
}

func putPreference(m map[string]string, p Preference, ok bool) {
	m["ok"] = strconv.FormatBool(ok)
	for c, v := range p {
		if v != Unknown {
			m[Vocabulary[c].Label] = v.token()
		}
	}
}

func putSignal(m map[string]string, s Signal) {
	for k, v := range s.Values {
		if v != Unknown {
			m[Signals[k].Key] = v.String()
		}
	}
	var other []string
	for _, e := range s.Other {
		other = append(other, e.Key+":"+e.Value)
	}
	if other != nil {
		m["other"] = strings.Join(other, ",")
	}
	if s.Malformed != 0 {
		m["malformed"] = strconv.Itoa(s.Malformed)
	}
}

// compare reports the differences between got and want; "ok" defaults
// to true and everything else absent from want must be absent from got.
func compare(t *testing.T, name string, got, want map[string]string) {
	t.Helper()
	if _, set := want["ok"]; !set {
		want["ok"] = "true"
	}
	if _, set := got["ok"]; !set {
		got["ok"] = "true"
	}
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if got[k] != want[k] {
			t.Errorf("%s: %s = %q, want %q", name, k, got[k], want[k])
		}
	}
}

// skipFile reads a file record up to "end".
func skipFile(t *testing.T, sc *bufio.Scanner, n *int, name string) {
	t.Helper()
	for sc.Scan() {
		*n++
		if sc.Text() == "end" {
			return
		}
	}
	t.Fatalf("%s: file record without end", name)
}
