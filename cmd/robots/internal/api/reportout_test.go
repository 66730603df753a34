package api

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// TestExplainCarriesGooglesReport: /api/explain gives Google's reading of
// every line of the file, equal to Google's own report, for every body of
// the conformance files' reports (as base64, for their exact bytes).
func TestExplainCarriesGooglesReport(t *testing.T) {
	type googleReport struct {
		conformance.Case
		Report ReportJSONOut `json:"report"`
	}
	n := 0
	err := conformance.Each("../../../../testdata/conformance/reporting.jsonl.gz", func(line int, r *googleReport) error {
		if n++; n%20 != 1 {
			return nil // one in twenty: every one is checked against Google in the root package
		}
		body, err := r.Body()
		require.NoError(t, err)
		req, err := json.Marshal(map[string]any{"robotstxt_b64": base64.StdEncoding.EncodeToString(body), "urls": []string{"/"}})
		require.NoError(t, err)
		out, apiErr := Local("/api/explain", req)
		require.Nil(t, apiErr, "line %d", line)
		var got struct {
			Report ReportJSONOut `json:"report"`
		}
		require.NoError(t, json.Unmarshal(out, &got))
		assert.Equal(t, r.Report, got.Report, "reporting.jsonl.gz:%d", line)
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 9998, n)
}
