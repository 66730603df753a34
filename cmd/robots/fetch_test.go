package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/fetch"
)

const fetchRules = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogooglebot/\n"

func TestFetchConditional(t *testing.T) {
	s, n := clitest.RobotsServer(t, 200, fetchRules)
	r := invoke(runFetch, "", "-a", "Googlebot", s.URL+"/nogooglebot/x", s.URL+"/private/x")
	assert.Equal(t, cli.ExitNegative, r.Code, r.Stderr)
	want := "DISALLOWED " + s.URL + "/nogooglebot/x  (line 5: Disallow: /nogooglebot/)\n" +
		"  robots.txt: " + s.URL + "/robots.txt  status: 200  policy: conditional  cache: 24h0m0s\n" +
		"ALLOWED " + s.URL + "/private/x  (no rule matched)\n" +
		"  robots.txt: " + s.URL + "/robots.txt  status: 200  policy: conditional  cache: 24h0m0s\n"
	assert.Equal(t, want, r.Stdout)
	assert.Equal(t, int64(1), n.Load(), "one fetch per origin")

	r = invoke(runFetch, "", s.URL+"/public", "-a", "OtherBot")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Contains(t, r.Stdout, "ALLOWED "+s.URL+"/public  (no rule matched)")
}

func TestFetchFallbackAgentsAndMode(t *testing.T) {
	s, _ := clitest.RobotsServer(t, 200, "User-agent: *\nDisallow: /%62%61%7A\n")
	r := invoke(runFetch, "", s.URL+"/baz")
	assert.Equal(t, cli.ExitOK, r.Code)
	r = invoke(runFetch, "", "--mode", "rfc", s.URL+"/baz")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Contains(t, r.Stdout, "(line 2: Disallow: /%62%61%7A)")
}

func TestFetchShowsCacheLifetime(t *testing.T) {
	s, _ := clitest.RobotsServer(t, 200, fetchRules, "Cache-Control", "max-age=3600")
	r := invoke(runFetch, "", s.URL+"/")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Contains(t, r.Stdout, "policy: conditional  cache: 1h0m0s\n")
}

func TestFetchFullAllowOn404(t *testing.T) {
	s, _ := clitest.RobotsServer(t, 404, "User-agent: *\nDisallow: /\n")
	r := invoke(runFetch, "", "-a", "Googlebot", s.URL+"/x")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Equal(t, "ALLOWED "+s.URL+"/x  (full allow: unavailable (4xx))\n"+
		"  robots.txt: "+s.URL+"/robots.txt  status: 404  policy: full allow  cache: 24h0m0s\n", r.Stdout)
}

func TestFetchFullDisallowOn5xx(t *testing.T) {
	s, _ := clitest.RobotsServer(t, 503, "")
	r := invoke(runFetch, "", s.URL+"/x")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, "DISALLOWED "+s.URL+"/x  (full disallow: server error (5xx))\n"+
		"  robots.txt: "+s.URL+"/robots.txt  status: 503  policy: full disallow  cache: 1m0s\n", r.Stdout)
}

func TestFetchRedirectsShown(t *testing.T) {
	other, _ := clitest.RobotsServer(t, 200, fetchRules)
	s := httptest.NewServer(http.RedirectHandler(other.URL+"/robots.txt", http.StatusMovedPermanently))
	t.Cleanup(s.Close)
	r := invoke(runFetch, "", s.URL+"/private/a")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Contains(t, r.Stdout, "redirects: 1 to "+other.URL+"/robots.txt")
}

func TestFetchNetworkFailureExits3(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	ok, _ := clitest.RobotsServer(t, 200, fetchRules)
	r := invoke(runFetch, "", "--timeout", "500ms", ok.URL+"/private/x", "http://"+addr+"/x")
	assert.Equal(t, cli.ExitUnreachable, r.Code, "a network failure wins over a disallowed URL")
	assert.Contains(t, r.Stdout, "DISALLOWED http://"+addr+"/x  (full disallow: network failure)\n")
	assert.Contains(t, r.Stdout, "status: -  policy: full disallow  cache: 10m0s  error: ")
	assert.Contains(t, r.Stdout, "connection refused")
}

func TestFetchTimeout(t *testing.T) {
	release := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
	}))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(release) })
	start := time.Now()
	r := invoke(runFetch, "", "--timeout", "150ms", s.URL+"/x")
	assert.Equal(t, cli.ExitUnreachable, r.Code)
	assert.Contains(t, r.Stdout, "context deadline exceeded")
	assert.Less(t, time.Since(start), 2*time.Second)
}

func TestFetchUsageErrors(t *testing.T) {
	clitest.AssertUsageErrors(t, runFetch, "", []clitest.UsageCase{
		{Name: "no URL", Args: nil, Stderr: "no URL given"},
		{Name: "flag without value", Args: []string{"-a"}, Stderr: "flag needs an argument: -a"},
		{Name: "bad timeout", Args: []string{"--timeout", "soon", "http://127.0.0.1:1/"}, Stderr: `invalid value "soon"`},
		{Name: "zero timeout", Args: []string{"--timeout", "0s", "http://127.0.0.1:1/"}, Stderr: "--timeout must be positive"},
		{Name: "bad mode", Args: []string{"--mode", "bing", "http://127.0.0.1:1/"}, Stderr: `unknown mode "bing"`},
		{Name: "relative path", Args: []string{"/relative"}, Stderr: `robots fetch: robots: "/relative": URL has no scheme`},
		{Name: "no scheme", Args: []string{"example.com/page"}, Stderr: "URL has no scheme"},
		{Name: "ftp", Args: []string{"ftp://127.0.0.1/file"}, Stderr: "only http and https URLs can be fetched"},
		{Name: "no host", Args: []string{"mailto:someone@example.com"}, Stderr: "URL has no host"},
		{Name: "empty user agent", Args: []string{"--user-agent", "", "http://127.0.0.1:1/"}, Stderr: `User-Agent "": empty`},
		{Name: "user agent with a newline", Args: []string{"--user-agent", "Bot\r\nX-Evil: 1", "http://127.0.0.1:1/"}, Stderr: "control byte 0x0d at byte 3"},
		{Name: "agent with a newline", Args: []string{"-a", "Bot\n", "http://127.0.0.1:1/"}, Stderr: "control byte 0x0a at byte 3"},
	})
}

func TestFetchHelp(t *testing.T) {
	r := invoke(run, "", "help", "fetch")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Contains(t, r.Stdout, "Usage: robots fetch")
	assert.Contains(t, r.Stdout, "-timeout duration")
	assert.True(t, strings.Contains(r.Stdout, "3 when a robots.txt could not be fetched"))
}

func TestRunDispatchesToFetch(t *testing.T) {
	s, _ := clitest.RobotsServer(t, 200, fetchRules)
	r := invoke(run, "", "fetch", "-a", "Googlebot", s.URL+"/nogooglebot/x")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.True(t, strings.HasPrefix(r.Stdout, "DISALLOWED "+s.URL+"/nogooglebot/x  (line 5: Disallow: /nogooglebot/)\n"))
}

// agentServer serves fetchRules and records the User-Agent header of each
// request.
func agentServer(t *testing.T) (*httptest.Server, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("User-Agent"))
		mu.Unlock()
		_, _ = io.WriteString(w, fetchRules)
	}))
	t.Cleanup(s.Close)
	return s, &got
}

func TestFetchSendsCrawlerUserAgent(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no agent", nil, "fastrobots/1.0 (+https://github.com/fastrobots/robots)"},
		{"first agent of the list", []string{"-a", "Googlebot-Image", "-a", "Googlebot"}, "Googlebot-Image/1.0 (+https://github.com/fastrobots/robots)"},
		{"given header", []string{"-a", "Googlebot", "--user-agent", "ExampleBot/2.1 (+https://example.com/bot)"}, "ExampleBot/2.1 (+https://example.com/bot)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, got := agentServer(t)
			r := invoke(runFetch, "", append(tt.args, s.URL+"/x")...)
			assert.Equal(t, cli.ExitOK, r.Code, r.Stderr)
			assert.Equal(t, []string{tt.want}, *got)
		})
	}
}

// The robots command and fetch.Transport send one default User-Agent for a
// crawler's robots.txt requests: fetch.DefaultUserAgent of its token.
func TestFetchUserAgentIsTheTransports(t *testing.T) {
	want := "ExampleBot/1.0 (+https://github.com/fastrobots/robots)"
	require.Equal(t, want, fetch.DefaultUserAgent("ExampleBot"))

	cmd, fromCLI := agentServer(t)
	r := invoke(runFetch, "", "-a", "ExampleBot", cmd.URL+"/a")
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)

	tr, fromTransport := agentServer(t)
	client := &http.Client{Transport: fetch.NewTransport(nil, fetch.TransportOptions{Agent: "ExampleBot"})}
	resp, err := client.Get(tr.URL + "/a")
	require.NoError(t, err)
	resp.Body.Close()

	assert.Equal(t, []string{want}, *fromCLI, "the robots.txt request of robots fetch")
	// The Transport's robots.txt request; the page request it carries keeps Go's header.
	require.Len(t, *fromTransport, 2)
	assert.Equal(t, want, (*fromTransport)[0], "the robots.txt request of fetch.Transport")
}

func TestFetchJSON(t *testing.T) {
	s, _ := clitest.RobotsServer(t, 200, fetchRules)
	gone, _ := clitest.RobotsServer(t, 404, "")
	r := invoke(runFetch, "", "--json", "-a", "Googlebot", s.URL+"/nogooglebot/x", gone.URL+"/y")
	assert.Equal(t, cli.ExitNegative, r.Code, r.Stderr)
	assert.Equal(t, `{"url":"`+s.URL+`/nogooglebot/x","allowed":false,"line":5,"rule":"Disallow: /nogooglebot/",`+
		`"robots_txt":"`+s.URL+`/robots.txt","status":200,"policy":"conditional","reason":"fetched"}`+"\n"+
		`{"url":"`+gone.URL+`/y","allowed":true,"line":0,"rule":"",`+
		`"robots_txt":"`+gone.URL+`/robots.txt","status":404,"policy":"full allow","reason":"unavailable (4xx)"}`+"\n", r.Stdout)
}

func TestFetchJSONNetworkFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	r := invoke(runFetch, "", "--json", "--timeout", "500ms", "http://"+addr+"/x")
	assert.Equal(t, cli.ExitUnreachable, r.Code)
	var got struct {
		Allowed    bool
		Status     int
		Policy     string
		FetchError string `json:"fetch_error"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &got))
	assert.False(t, got.Allowed)
	assert.Zero(t, got.Status)
	assert.Equal(t, "full disallow", got.Policy)
	assert.Contains(t, got.FetchError, "connection refused")
}
