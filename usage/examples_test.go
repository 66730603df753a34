package usage

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fastrobots/robots/internal/testkit/usageexamples"
)

// examplesFile holds every example of the drafts and of Cloudflare's
// documentation, with the meaning each must have.
const examplesFile = "../testdata/usage/examples.txt"

// TestExamples checks every single-line record of examplesFile; the
// file's header explains the records. Its "file" records are whole
// robots.txt files, which the robots package's TestUsageExamples runs
// through the real parser and Decide.
func TestExamples(t *testing.T) {
	values, _, err := usageexamples.Read(examplesFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range values {
		name := v.Source + ": " + v.Kind + " " + strconv.Quote(v.Input)
		checkValue(t, name, v.Kind, v.Input, v.Want)
	}
	if len(values) < 30 {
		t.Errorf("%d value checks read from %s, want the whole file", len(values), examplesFile)
	}
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
	case "decide":
		path, p, ok := ParseContentUsage(input)
		got["ok"] = strconv.FormatBool(ok)
		u := Decide([]Rule{{Line: 1, Pattern: EscapePath(path), Pref: p}}, nil, path, true)
		for _, pp := range AllPurposes() {
			if v := u.For(pp).Value; v != Unknown {
				got[pp.String()] = v.String()
			}
		}
	case "use":
		putUse(got, ParseContentSignal(input))
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
	if s.Use != LevelNone {
		m[UseKey] = s.Use.String()
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

// putUse writes what a crawler asks of a line's use level: the level,
// for each level whether the site permits it (Level.Permits), and the
// declared levels Cloudflare's /crawl rule refuses (Level.Refuses).
func putUse(m map[string]string, s Signal) {
	if s.Use != LevelNone {
		m["level"] = s.Use.String()
	}
	var refused []string
	for l := LevelImmediate; l < numLevels; l++ {
		if v := s.Use.Permits(l); v != Unknown {
			m[l.String()] = v.String()
		}
		if s.Use.Refuses(l) {
			refused = append(refused, l.String())
		}
	}
	if refused != nil {
		m["refuses"] = strings.Join(refused, ",")
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
