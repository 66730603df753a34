package main

import (
	"strings"
	"testing"
)

// out is an output event of pkg's test (test "" for the package itself).
func out(pkg, test, text string) event {
	return event{Action: "output", Package: pkg, Test: test, Output: text}
}

func TestReport(t *testing.T) {
	tests := []struct {
		name   string
		events []event
		want   string
		tally  tally
	}{
		{
			name: "a skip waits for its package's line",
			events: []event{
				out("p/a", "TestX", "=== RUN   TestX\n"),
				out("p/a", "TestX", "    x_test.go:9: ../shared is absent\n"),
				out("p/a", "TestX", "--- SKIP: TestX (0.00s)\n"),
				{Action: "skip", Package: "p/a", Test: "TestX"},
				out("p/b", "", "ok  \tp/b\t0.010s\n"),
				{Action: "pass", Package: "p/b", Elapsed: 0.01},
				out("p/a", "", "ok  \tp/a\t1.234s\n"),
				{Action: "pass", Package: "p/a", Elapsed: 1.234},
			},
			want: "ok   p/b 0.010s\n" +
				"ok   p/a 1.234s\n" +
				"     SKIP TestX: x_test.go:9: ../shared is absent\n",
			tally: tally{packages: 2, skipped: 1},
		},
		{
			name: "a cached result says so",
			events: []event{
				out("p/a", "", "ok  \tp/a\t(cached)\n"),
				{Action: "pass", Package: "p/a"},
				out("p/b", "", "ok  \tp/b\t(cached) [no tests to run]\n"),
				{Action: "pass", Package: "p/b"},
			},
			want:  "ok   p/a (cached)\nok   p/b (cached) [no tests to run]\n",
			tally: tally{packages: 2},
		},
		{
			name: "a failed test and a package's panic are shown",
			events: []event{
				out("p/a", "TestY", "=== RUN   TestY\n"),
				out("p/a", "TestY", "    y_test.go:3: want 1, got 2\n"),
				{Action: "fail", Package: "p/a", Test: "TestY"},
				out("p/a", "", "panic: boom\n"),
				out("p/a", "", "FAIL\tp/a\t0.500s\n"),
				{Action: "fail", Package: "p/a", Elapsed: 0.5},
			},
			want: "--- FAIL p/a TestY\n=== RUN   TestY\n    y_test.go:3: want 1, got 2\n" +
				"FAIL p/a 0.500s\npanic: boom\n",
			tally: tally{failed: 1},
		},
		{
			name: "a build's errors are shown, packages without tests are not",
			events: []event{
				{Action: "build-output", ImportPath: "p/a [p/a.test]", Output: "a.go:1:1: undefined: x\n"},
				out("p/c", "", "?   \tp/c\t[no test files]\n"),
				{Action: "skip", Package: "p/c"},
				{Action: "fail", Package: "p/a"},
			},
			want:  "a.go:1:1: undefined: x\nFAIL p/a 0.0s\n",
			tally: tally{failed: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			r := newReport(&b)
			for _, e := range tt.events {
				r.add(e)
			}
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
			if r.tally != tt.tally {
				t.Errorf("tally %+v, want %+v", r.tally, tt.tally)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		t    tally
		want string
	}{
		{tally{packages: 40, skipped: 2}, "ok: 40 packages tested, 2 tests skipped, 0 failed"},
		{tally{packages: 39, failed: 1}, "FAIL: 39 packages tested, 0 tests skipped, 1 failed"},
	}
	for _, tt := range tests {
		if got := tt.t.summary(); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.t, got, tt.want)
		}
	}
}

func TestModulePath(t *testing.T) {
	tests := []struct{ gomod, want string }{
		{"module github.com/fastrobots/robots\n\ngo 1.26.0\n", "github.com/fastrobots/robots"},
		{"// comment\nmodule \"example.com/x\"\n", "example.com/x"},
		{"go 1.26.0\n", "?"},
	}
	for _, tt := range tests {
		if got := modulePath([]byte(tt.gomod)); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.gomod, got, tt.want)
		}
	}
}
