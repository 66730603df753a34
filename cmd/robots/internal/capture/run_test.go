package capture_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/internal/survey"
	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// surveyRows runs robots survey over inputs and returns its exit status,
// its standard error and its capture rows.
func surveyRows(t *testing.T, inputs ...string) (int, string, []map[string]any) {
	t.Helper()
	out := t.TempDir()
	r := clitest.Invoke(survey.Run, "", append([]string{"--format", "jsonl", "--agents", "GPTBot", "--out", out}, inputs...)...)
	f, err := os.Open(filepath.Join(out, "captures.jsonl"))
	require.NoError(t, err, r.Stderr)
	defer f.Close()
	var rows []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &row))
		rows = append(rows, row)
	}
	require.NoError(t, sc.Err())
	return r.Code, r.Stderr, rows
}

// crawlFile writes a .warc.gz of three robots.txt responses of host, the
// last a redirect to the first read after it, and returns its bytes.
func crawlFile(t *testing.T, host string) []byte {
	recs := [][]byte{
		warctest.Response(t, "http://"+host+"/robots.txt", 301, "Location: https://"+host+"/robots.txt\r\n", nil),
		warctest.Response(t, "https://www."+host+"/robots.txt", 200, "", []byte("User-agent: *\nDisallow: /private\n")),
		warctest.Response(t, "https://"+host+"/robots.txt", 200, "", []byte("User-agent: GPTBot\nDisallow: /\n")),
	}
	var data []byte
	for _, r := range recs {
		data = append(data, warctest.GzipMember(t, r)...)
	}
	return data
}

// TestSurveyRunWARCDirectory: robots survey over a directory of .warc.gz
// files reads their records, not the files as robots.txt bodies; a file
// beside them that is no WARC file is an error naming it, and the run
// exits 1.
func TestSurveyRunWARCDirectory(t *testing.T) {
	dir := t.TempDir()
	for i := range 4 {
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("crawl-%d.warc.gz", i)), crawlFile(t, fmt.Sprintf("h%d.example", i)), 0o644))
	}
	code, stderr, rows := surveyRows(t, dir)
	assert.Equal(t, cli.ExitOK, code, stderr)
	require.Len(t, rows, 12)
	for i, row := range rows {
		assert.Equal(t, fmt.Sprintf("crawl-%d.warc.gz", i/3), row["file"])
		assert.Contains(t, row["url"], ".example/robots.txt")
		assert.Nil(t, row["error"])
		if row["status"] == float64(301) {
			assert.Equal(t, float64(200), row["redirect_status"], "the redirect is followed within its file")
		}
	}

	require.NoError(t, os.WriteFile(filepath.Join(dir, "NOTES"), []byte("Crawled in June.\n"), 0o644))
	code, stderr, rows = surveyRows(t, dir)
	assert.Equal(t, cli.ExitNegative, code, stderr)
	assert.Contains(t, stderr, dir+": NOTES: not a WARC file")
	require.Len(t, rows, 13)
	assert.Equal(t, "NOTES", rows[0]["file"])
	assert.Contains(t, rows[0]["error"], "not a WARC file")
}

// TestSurveyRunNoRange: an http input from a server that ignores Range is
// read by streaming it: its redirect to a target read after it is
// followed, no error row, exit 0.
func TestSurveyRunNoRange(t *testing.T) {
	srv := warctest.NewServer(t)
	url := srv.AddData("crawl.warc.gz", crawlFile(t, "a.example"))
	srv.SetFaults(func(s *warctest.Server) { s.IgnoreRange = true })
	code, stderr, rows := surveyRows(t, url)
	assert.Equal(t, cli.ExitOK, code, stderr)
	require.Len(t, rows, 3)
	for _, row := range rows {
		assert.Nil(t, row["error"])
	}
	assert.Equal(t, "http://a.example/robots.txt", rows[2]["url"])
	assert.Equal(t, float64(1), rows[2]["redirect_hops"])
}
