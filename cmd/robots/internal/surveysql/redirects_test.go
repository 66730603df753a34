//go:build cgo

package surveysql

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// warcResponse is a response record of a plain WARC file: the target
// URI, the fetch time, and the HTTP response, status, headers and body.
func warcResponse(uri, date string, status int, headers, body string) string {
	block := fmt.Sprintf("HTTP/1.1 %d Status\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n%s\r\n%s", status, len(body), headers, body)
	id := sha256.Sum256([]byte(uri + "\x00" + date + "\x00" + block))
	return fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%x-%x-%x-%x-%x>\r\n"+
		"WARC-Date: %s\r\nWARC-Target-URI: %s\r\nContent-Type: application/http;msgtype=response\r\n"+
		"Content-Length: %d\r\n\r\n%s\r\n\r\n", id[0:4], id[4:6], id[6:8], id[8:10], id[10:16], date, uri, len(block), block)
}

// TestRedirectsAcrossFiles: redirects.sql gives a 3xx capture whose
// target is in another file of the run the agent rows of the target's
// capture fetched nearest in time; a 3xx followed within its own file is
// not among its rows.
func TestRedirectsAcrossFiles(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	files := map[string]string{
		"a.warc": warcResponse("http://one.example/robots.txt", "2025-06-01T12:00:00Z", 301, "Location: https://one.example/robots.txt\r\n", "") +
			warcResponse("http://two.example/robots.txt", "2025-06-01T12:00:00Z", 302, "Location: https://two.example/robots.txt\r\n", "") +
			warcResponse("http://three.example/robots.txt", "2025-06-01T12:00:00Z", 301, "Location: https://three.example/robots.txt\r\n", "") +
			warcResponse("https://three.example/robots.txt", "2025-06-01T12:00:01Z", 200, "", "User-agent: *\nDisallow: /\n"),
		"b.warc": warcResponse("https://one.example/robots.txt", "2025-06-01T18:00:00Z", 200, "", "User-agent: *\nDisallow:\n") +
			warcResponse("https://one.example/robots.txt", "2025-06-01T12:05:00Z", 200, "", "User-agent: *\nDisallow: /\n"),
		"c.warc": warcResponse("https://two.example/robots.txt", "2025-06-01T12:00:02Z", 200, "", "User-agent: GPTBot\nDisallow: /private\n"),
	}
	var inputs []string
	for _, name := range []string{"a.warc", "b.warc", "c.warc"} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(files[name]), 0o644))
		inputs = append(inputs, path)
	}
	_, code := survey(t, out, append([]string{"--agents", "GPTBot,*"}, inputs...)...)
	require.Equal(t, 0, code)
	db := openDB(t, out, ".parquet")

	// What the survey itself says of the three 3xx captures.
	redirects := map[string]string{}
	for _, r := range query(t, db, `SELECT url, redirect_error, policy FROM captures WHERE status BETWEEN 300 AND 399`) {
		redirects[fmt.Sprint(r["url"])] = fmt.Sprint(r["redirect_error"], " ", r["policy"])
	}
	assert.Equal(t, map[string]string{
		"http://one.example/robots.txt":   "absent unresolved",
		"http://two.example/robots.txt":   "absent unresolved",
		"http://three.example/robots.txt": "<nil> parsed", // followed within a.warc: the target's rules
	}, redirects)

	qs := sqlQueries(t, "redirects.sql")
	require.Len(t, qs, 1)
	got := map[string]string{}
	for _, r := range query(t, db, qs[0].sql) {
		key := fmt.Sprint(r["url"], " ", r["agent"])
		require.NotContains(t, got, key, "one target capture for each 3xx")
		got[key] = fmt.Sprint(filepath.Base(fmt.Sprint(r["target_input"])), " ", r["target_status"], " ", r["class"], " ", r["disallowed_example"])
	}
	assert.Equal(t, map[string]string{
		// The capture of 12:05, not the one of 18:00, which disallows nothing.
		"http://one.example/robots.txt GPTBot": "b.warc 200 all /",
		"http://one.example/robots.txt *":      "b.warc 200 all /",
		"http://two.example/robots.txt GPTBot": "c.warc 200 some /private",
		"http://two.example/robots.txt *":      "c.warc 200 none <nil>",
	}, got)
}
