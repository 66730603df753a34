package survey

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/capture"
	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
)

// TestSurveyAgentRowsShared: the rows a capture's agents share (a class
// per group selection, one row for the agents no group names) are the
// rows each agent gets alone, over the licensed corpus and files whose
// named groups are also '*' groups or carry usage lines.
func TestSurveyAgentRowsShared(t *testing.T) {
	agents := surveyAgentNames(surveyDefaultAgents)
	var bodies [][]byte
	for _, f := range []string{
		"User-agent: *\nUser-agent: GPTBot\nDisallow: /\n",
		"Content-Signal: search=yes, ai-train=no, use=reference\n\nUser-agent: *\nContent-Usage: /blog/ train-ai=y\nCrawl-delay: 3\nDisallow: /x\n\nUser-agent: CCBot\nContent-Usage: train-ai=n\nAllow: /\n",
		"User-agent: Bingbot\nDisallow: /\n",
		"",
	} {
		bodies = append(bodies, []byte(f))
	}
	require.NoError(t, warctest.LicensedBodies(0)(func(_ string, body []byte) error {
		bodies = append(bodies, body)
		return nil
	}))
	for _, body := range bodies {
		res := surveyCapture(&capture.Capture{Index: 1, Input: "x", Site: "s.example", Status: 200, Size: int64(len(body)), Body: body}, agents, false)
		r := robots.FromStatus(200, body)
		for i, name := range agents {
			var alone agentRow
			surveyAgentRow(&alone, r, name, &surveyAgentsSeen{preamble: r.Preamble(), classes: map[string]classified{}})
			got := res.agentRs[i]
			got.Index, got.Input, got.URL, got.Host = 0, "", "", ""
			if !assert.Equal(t, alone, got, "%s in %q", name, body[:min(len(body), 200)]) {
				return
			}
		}
	}
}
