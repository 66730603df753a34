package survey

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/capture"
	"github.com/fastrobots/robots/internal/testkit/hostile"
)

// surveyHostileClasses are the files of hostile.ClassifyFiles, which cost
// a survey most per capture, and the class each gets for every default
// agent. An undecided class is the exploration's bound
// (automaton.MaxClassifyStates).
var surveyHostileClasses = map[string]string{
	"long-stars": "some", "long-stars-mixed": "some", "short-stars": "undecided",
	"star-combinations": "undecided", "a-group-per-agent": "some", "star-combinations-per-agent": "some",
	"many-groups": "none", "nested-prefixes": "some", "usage-lines": "none",
}

// TestSurveyCaptureHostile: each hostile file is answered, for every
// default agent, with the class it gets.
func TestSurveyCaptureHostile(t *testing.T) {
	agents := surveyAgentNames(surveyDefaultAgents)
	files := hostile.ClassifyFiles(agents)
	require.Len(t, files, len(surveyHostileClasses))
	for _, f := range files {
		t.Run(f.Name, func(t *testing.T) {
			require.LessOrEqual(t, len(f.Body), hostile.Limit)
			res := surveyCapture(&capture.Capture{Index: 1, Input: "x", Site: "s.example", Status: 200, Size: int64(len(f.Body)), Body: f.Body}, agents, false)
			require.NotNil(t, res.row)
			assert.False(t, res.row.Truncated)
			require.Len(t, res.agentRs, len(agents))
			for _, a := range res.agentRs {
				assert.Equal(t, surveyHostileClasses[f.Name], a.Class, a.Agent)
			}
		})
	}
}

// BenchmarkSurveyCaptureHostile is the time one worker takes to answer a
// capture of each hostile file for the default agents.
func BenchmarkSurveyCaptureHostile(b *testing.B) {
	agents := surveyAgentNames(surveyDefaultAgents)
	for _, f := range hostile.ClassifyFiles(agents) {
		b.Run(f.Name, func(b *testing.B) {
			for b.Loop() {
				surveyCapture(&capture.Capture{Index: 1, Input: "x", Site: "s.example", Status: 200, Size: int64(len(f.Body)), Body: f.Body}, agents, false)
			}
		})
	}
}
