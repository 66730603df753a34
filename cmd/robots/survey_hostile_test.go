package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// surveyHostileFile is a robots.txt file of the shapes that cost a
// survey most per capture, and the class it gets for every agent.
type surveyHostileFile struct {
	body  []byte
	class string
}

// surveyHostileFiles are files of 500 KiB, the size limit, each of one
// line repeated with a counter: long lines of many stars, short starred
// lines, a group per agent, thousands of groups, nested prefixes. An
// undecided class is the exploration's bound (automaton.MaxClassifyStates).
func surveyHostileFiles() map[string]surveyHostileFile {
	fill := func(head string, line func(i int) string) []byte {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; ; i++ {
			l := line(i)
			if b.Len()+len(l) > surveyHostileBytes {
				return []byte(b.String())
			}
			b.WriteString(l)
		}
	}
	kind := func(i int) string { return []string{"Allow", "Disallow"}[i%2] }
	const al = "abcdefghijklmnopqrstuvwxyz0123456789-_.~"
	return map[string]surveyHostileFile{
		"long-stars": {fill("User-agent: *\nDisallow: /zz\n", func(i int) string {
			return "Allow: /" + strings.Repeat("*a", 8000) + fmt.Sprint(i) + "\n"
		}), "some"},
		"long-stars-mixed": {fill("User-agent: *\n", func(i int) string {
			return kind(i) + ": /" + strings.Repeat("a*", 8000) + fmt.Sprint(i) + "$\n"
		}), "some"},
		"short-stars": {fill("User-agent: *\n", func(i int) string {
			return kind(i) + ": /*" + strings.Repeat(string(rune('a'+i%3))+"*", 3+i%5) + "\n"
		}), "undecided"},
		"star-combinations": {fill("User-agent: *\n", func(i int) string {
			return fmt.Sprintf("%s: /*%c*%c*%c*%c\n", kind(i), al[i%40], al[(i/40)%40], al[(i/1600)%40], al[(i/7)%40])
		}), "undecided"},
		"a-group-per-agent": {fill("", func(i int) string {
			a := surveyDefaultAgents[i%len(surveyDefaultAgents)].name
			return "User-agent: " + a + "\nDisallow: /" + strings.Repeat("*x", 200) + fmt.Sprint(i) + "\nAllow: /" + strings.Repeat("x*", 100) + fmt.Sprint(i) + "$\n"
		}), "some"},
		"star-combinations-per-agent": {func() []byte {
			// A group for each agent, each of its share of the lines above.
			var b strings.Builder
			for g, a := range surveyDefaultAgents {
				b.WriteString("User-agent: " + a.name + "\n")
				for i := 0; b.Len() < (g+1)*surveyHostileBytes/len(surveyDefaultAgents)-40; i++ {
					fmt.Fprintf(&b, "%s: /*%c*%c*%c*%c\n", kind(i), al[i%40], al[(i/40)%40], al[(i/1600)%40], al[(i/7)%40])
				}
			}
			return []byte(b.String())
		}(), "some"},
		"many-groups": {fill("", func(i int) string { return fmt.Sprintf("User-agent: bot%d\nDisallow: /%d\n", i, i) }), "none"},
		"nested-prefixes": {fill("User-agent: *\n", func(i int) string {
			return kind(i) + ": /" + strings.Repeat("a", i) + "\n"
		}), "some"},
		"usage-lines": {fill("User-agent: *\n", func(i int) string {
			return fmt.Sprintf("Content-Usage: /p%d train-ai=n\nContent-Signal: search=yes, ai-train=no\n", i)
		}), "none"},
	}
}

// surveyHostileBytes is the size of surveyHostileFiles: all a capture's
// body Google reads.
const surveyHostileBytes = 500 << 10

// TestSurveyCaptureHostile: each hostile file is answered, for every
// default agent, with the class it gets.
func TestSurveyCaptureHostile(t *testing.T) {
	files := surveyHostileFiles()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		f := files[name]
		t.Run(name, func(t *testing.T) {
			require.LessOrEqual(t, len(f.body), surveyHostileBytes)
			res := surveyCapture(&capture{index: 1, input: "x", site: "s.example", status: 200, size: int64(len(f.body)), body: f.body}, surveyAgentNames(surveyDefaultAgents), false)
			require.NotNil(t, res.row)
			assert.False(t, res.row.Truncated)
			require.Len(t, res.agentRs, len(surveyDefaultAgents))
			for _, a := range res.agentRs {
				assert.Equal(t, f.class, a.Class, a.Agent)
			}
		})
	}
}

// BenchmarkSurveyCaptureHostile is the time one worker takes to answer a
// capture of each hostile file for the default agents.
func BenchmarkSurveyCaptureHostile(b *testing.B) {
	files := surveyHostileFiles()
	agents := surveyAgentNames(surveyDefaultAgents)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		body := files[name].body
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				surveyCapture(&capture{index: 1, input: "x", site: "s.example", status: 200, size: int64(len(body)), body: body}, agents, false)
			}
		})
	}
}
