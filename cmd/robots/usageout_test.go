package main

import (
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// usageRules is a file with Content-Signal before its group and a
// Content-Usage rule in it.
const usageRules = "Content-Signal: ai-train=no, use=reference\nUser-agent: *\nContent-Usage: /blog/ train-ai=y\nDisallow: /p\n"

// usageWant is the "usage" member for /blog/x under usageRules: vocab-08's
// categories, the signals, the use level and the purposes.
const usageWant = `"usage":{"categories":{"ai-use":{"value":"unknown","line":3,"source":"Content-Usage"},` +
	`"search":{"value":"unknown","line":3,"source":"Content-Usage"},"train-ai":{"value":"yes","line":3,"source":"Content-Usage"}},` +
	`"signals":{"ai-input":{"value":"unknown"},"ai-train":{"value":"no","line":1,"source":"Content-Signal"},"search":{"value":"unknown"}},` +
	`"use":{"level":"reference","line":1,"source":"Content-Signal","purposes":{"ai-use":{"needs":"immediate","value":"yes"},` +
	`"search":{"needs":"reference","value":"yes"},"train":{"needs":"full","value":"no"}}},` +
	`"purposes":{"ai-use":{"value":"unknown"},"search":{"value":"unknown"},"train":{"value":"yes","line":3,"source":"Content-Usage"}},` +
	`"may_train":{"value":"yes","line":3,"source":"Content-Usage"}}`

// TestCheckJSONUsage checks check --json's usage member: given for an
// allowed URL a line speaks for, left out for a disallowed one.
func TestCheckJSONUsage(t *testing.T) {
	path := writeTemp(t, usageRules)
	r := invoke(runCheck, "", "-f", path, "--json", "/blog/x", "/p")
	lines := outputLines(r.Stdout)
	require.Len(t, lines, 2)
	assert.Equal(t, `{"url":"/blog/x","allowed":true,"line":0,"rule":"",`+usageWant+`}`, lines[0])
	assert.Equal(t, `{"url":"/p","allowed":false,"line":4,"rule":"Disallow: /p"}`, lines[1])
}

// TestUsageMemberLeftOut checks that the usage member is left out when
// nothing decided: for an allowed URL of a file without usage lines, for
// a URL no line speaks for, and for a disallowed URL, in check --json,
// explain --json, /api/check and /api/explain; and by fetch --json when
// neither the file nor the response states anything.
func TestUsageMemberLeftOut(t *testing.T) {
	plain := "User-agent: *\nDisallow: /p\n"
	onlyBlog := "User-agent: *\nContent-Usage: /blog/ train-ai=y\nDisallow: /p\n"
	s := localAPI(t)
	for _, tc := range []struct{ name, body, url string }{
		{"no usage lines", plain, "/x"},
		{"no line speaks for the URL", onlyBlog, "/x"},
		{"disallowed", usageRules, "/p"},
	} {
		path := writeTemp(t, tc.body)
		for _, run := range []struct {
			name string
			out  string
		}{
			{"check --json", invoke(runCheck, "", "-f", path, "--json", tc.url).Stdout},
			{"explain --json", invoke(runExplain, "", "-f", path, "--json", tc.url).Stdout},
		} {
			assert.NotContains(t, clitest.Object(t, run.out), "usage", "%s: %s", tc.name, run.name)
		}
		for _, api := range []string{"/api/check", "/api/explain"} {
			got := clitest.PostOK(t, s, api, clitest.JSON(t, map[string]any{"robotstxt": tc.body, "urls": []string{tc.url}}))
			assert.NotContains(t, got["results"].([]any)[0].(map[string]any), "usage", "%s: %s", tc.name, api)
		}
	}
	origin, _ := clitest.RobotsServer(t, 200, plain)
	assert.NotContains(t, clitest.Object(t, invoke(runFetch, "", "--json", origin.URL+"/x").Stdout), "usage", "fetch --json")

	// A line that speaks for the URL gives the member.
	path := writeTemp(t, onlyBlog)
	assert.Contains(t, clitest.Object(t, invoke(runCheck, "", "-f", path, "--json", "/blog/a").Stdout), "usage")
}

// TestExplainUsage checks explain's usage lines and its --json member.
func TestExplainUsage(t *testing.T) {
	path := writeTemp(t, usageRules)
	r := invoke(runExplain, "", "-f", path, "/blog/x")
	assert.Contains(t, r.Stdout, "  usage:   train-ai=yes (Content-Usage, line 3)\n")
	assert.Contains(t, r.Stdout, "           ai-train=no (Content-Signal, line 1)\n")
	assert.Contains(t, r.Stdout, "           use=reference (Content-Signal, line 1)\n")
	assert.Contains(t, r.Stdout, "           may-train=yes (Content-Usage, line 3)\n")
	assert.NotContains(t, r.Stdout, "may-search", "a purpose no line decides is not printed")
	r = invoke(runExplain, "", "-f", path, "--json", "/blog/x")
	assert.Contains(t, r.Stdout, usageWant)
	r = invoke(runExplain, "", "-f", writeTemp(t, "User-agent: *\nDisallow: /p\n"), "/x")
	assert.NotContains(t, r.Stdout, "usage:", "a file without usage lines prints none")
}

// TestServeCheckUsage checks that /api/check and /api/explain give the
// usage member check --json gives; the page shows the latter's.
func TestServeCheckUsage(t *testing.T) {
	s := localAPI(t)
	got := clitest.PostOK(t, s, "/api/check", clitest.JSON(t, map[string]any{"robotstxt": usageRules, "urls": []string{"/blog/x"}}))
	want := clitest.Object(t, invoke(runCheck, "", "-f", writeTemp(t, usageRules), "--json", "/blog/x").Stdout)
	require.NotNil(t, want["usage"])
	assert.Equal(t, want["usage"], got["results"].([]any)[0].(map[string]any)["usage"])
	got = clitest.PostOK(t, s, "/api/explain", clitest.JSON(t, map[string]any{"robotstxt": usageRules, "urls": []string{"/blog/x"}}))
	assert.Equal(t, want["usage"], got["results"].([]any)[0].(map[string]any)["usage"])
}

// TestFetchUsage checks that fetch --json and /api/fetch give the same
// usage member: the file's lines combined with the robots.txt response's
// Content-Usage field.
func TestFetchUsage(t *testing.T) {
	origin, _ := clitest.RobotsServer(t, 200, usageRules, "Content-Usage", "search=n")
	page := origin.URL + "/blog/x"
	want := clitest.Object(t, invoke(runFetch, "", "--json", page).Stdout)
	use, ok := want["usage"].(map[string]any)
	require.True(t, ok, "fetch --json gives a usage member")
	assert.Equal(t, map[string]any{"value": "no", "source": "Content-Usage header"}, use["categories"].(map[string]any)["search"])
	assert.Equal(t, map[string]any{"value": "yes", "line": 3.0, "source": "Content-Usage"}, use["categories"].(map[string]any)["train-ai"])
	got := clitest.PostOK(t, localAPI(t), "/api/fetch", clitest.JSON(t, map[string]any{"url": page}))
	assert.Equal(t, want["usage"], got["usage"])
}
