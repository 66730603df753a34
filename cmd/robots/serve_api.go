package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
)

// serverConfig configures newServer. Zero durations mean the defaults.
type serverConfig struct {
	// allowPrivate lets fetches connect to any address (--allow-private).
	allowPrivate bool
	// policy, when set, decides which addresses fetches may connect to,
	// in place of the one allowPrivate implies.
	policy addrPolicy
	// requestTimeout bounds the work of one API request (requestTimeout).
	requestTimeout time.Duration
	// fetchTimeout bounds one robots.txt fetch (fetchTimeout).
	fetchTimeout time.Duration
	// loopbackHosts refuses requests whose Host header is not a loopback
	// name or address: serve sets it when it listens on loopback.
	loopbackHosts bool
}

// server is the handler of robots serve: the tester page and the API.
type server struct {
	client         *http.Client
	requestTimeout time.Duration
	fetchTimeout   time.Duration
	loopbackHosts  bool
	mux            *http.ServeMux
}

// newServer returns the handler robots serve serves with c.
func newServer(c serverConfig) *server {
	policy := c.policy
	if policy == nil && !c.allowPrivate {
		policy = publicOnly
	}
	s := &server{
		client:         &http.Client{Transport: recordingTransport{next: guardedTransport(policy)}},
		requestTimeout: orDefault(c.requestTimeout, requestTimeout),
		fetchTimeout:   orDefault(c.fetchTimeout, fetchTimeout),
		loopbackHosts:  c.loopbackHosts,
		mux:            http.NewServeMux(),
	}
	s.mux.Handle("/api/check", s.api(s.check))
	s.mux.Handle("/api/explain", s.api(s.explain))
	s.mux.Handle("/api/lint", s.api(s.lint))
	s.mux.Handle("/api/fetch", s.api(s.fetch))
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &apiError{http.StatusNotFound, fmt.Sprintf("no API at %s: see docs/serve.md", r.URL.Path)})
	})
	s.routePage()
	return s
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// ServeHTTP serves the page and the API, with the headers every answer
// carries.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if s.loopbackHosts && !loopbackHost(r.Host) {
		writeError(w, &apiError{http.StatusMisdirectedRequest, fmt.Sprintf(
			"this server listens on loopback and answers to localhost, 127.0.0.1 or [::1], not to %q", r.Host)})
		return
	}
	s.mux.ServeHTTP(w, r)
}

// loopbackHost reports whether host, a Host header, names the loopback
// interface: localhost (or a name under .localhost, RFC 6761) or a
// loopback address, with any port. A page of another site whose name
// the attacker has pointed at 127.0.0.1 (DNS rebinding) would otherwise
// read the answers of a server on loopback: its requests carry its own
// name.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return err == nil && a.IsLoopback()
}

// apiFunc answers one API request, within ctx: the value sent as JSON,
// or an error.
type apiFunc func(ctx context.Context, w http.ResponseWriter, r *http.Request) (any, *apiError)

// api returns the handler of an API endpoint: POST only, within the
// request deadline, answering JSON.
func (s *server) api(f apiFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, &apiError{http.StatusMethodNotAllowed, fmt.Sprintf("%s takes POST, not %s", r.URL.Path, r.Method)})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), s.requestTimeout)
		defer cancel()
		v, err := f(ctx, w, r)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
}

// writeJSON sends v as the JSON answer, with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = newJSONEncoder(w).Encode(v) // the client is gone or the write timed out: nobody to tell
}

// requestErrorJSON is the answer to a request that gets no result:
// {"error": "..."}. (errorJSON is the result of one URL that gets none.)
type requestErrorJSON struct {
	Error string `json:"error"`
}

// writeError sends err as {"error": "..."} with its status.
func writeError(w http.ResponseWriter, err *apiError) {
	writeJSON(w, err.status, requestErrorJSON{err.msg})
}

// deadlineOr returns the answer for a request whose deadline passed when
// it has, else err.
func deadlineOr(ctx context.Context, err *apiError) *apiError {
	if ctx.Err() != nil {
		return &apiError{http.StatusServiceUnavailable, "the request did not finish within the server's time limit"}
	}
	return err
}

// resultsJSON is the answer of check and explain: one result per URL, in
// the order given, and the robots.txt answer when an origin was fetched.
type resultsJSON struct {
	Fetch   *fetchInfoJSON `json:"fetch,omitempty"`
	Results []any          `json:"results"`
}

// lintJSON is the answer of lint: lint --json's findings (without the
// file name: there is one file), and the robots.txt answer when an origin
// was fetched.
type lintJSON struct {
	Fetch    *fetchInfoJSON      `json:"fetch,omitempty"`
	Findings []robots.Diagnostic `json:"findings"`
}

// fetchResponseJSON is the answer of fetch: fetch --json's line for the
// URL, more about the fetch, and the body that was parsed.
type fetchResponseJSON struct {
	verdictJSON
	fetchDetailsJSON
	Body    string `json:"body"`
	BodyB64 string `json:"body_b64,omitempty"`
}

// check answers POST /api/check: a verdict for each URL.
func (s *server) check(ctx context.Context, w http.ResponseWriter, r *http.Request) (any, *apiError) {
	q, err := s.query(ctx, w, r)
	if err != nil {
		return nil, err
	}
	d := q.decider()
	out := resultsJSON{Fetch: q.fetchInfo(), Results: make([]any, len(q.urls))}
	for i, u := range q.urls {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, deadlineOr(ctx, nil)
		}
		if bad := q.checkURL(u); bad != nil {
			out.Results[i] = newErrorJSON(bad)
			continue
		}
		out.Results[i] = newVerdictJSON(u, d.Decide(u))
	}
	return out, nil
}

// explain answers POST /api/explain: an explanation for each URL.
func (s *server) explain(ctx context.Context, w http.ResponseWriter, r *http.Request) (any, *apiError) {
	q, err := s.query(ctx, w, r)
	if err != nil {
		return nil, err
	}
	if q.robots == nil {
		return nil, noRules(q.fetched, "explain")
	}
	out := resultsJSON{Fetch: q.fetchInfo(), Results: make([]any, len(q.urls))}
	for i, u := range q.urls {
		if ctx.Err() != nil {
			return nil, deadlineOr(ctx, nil)
		}
		if bad := q.checkURL(u); bad != nil {
			out.Results[i] = newErrorJSON(bad)
			continue
		}
		out.Results[i] = explainJSON(u, q.robots.Explain(q.agents, u))
	}
	return out, nil
}

// lint answers POST /api/lint: the findings of the robots.txt.
func (s *server) lint(ctx context.Context, w http.ResponseWriter, r *http.Request) (any, *apiError) {
	var req lintRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return nil, err
	}
	body, isText, err := robotsText(req.RobotsTxt, req.RobotsTxtB64, req.Origin)
	if err != nil {
		return nil, err
	}
	out := lintJSON{}
	if !isText {
		f, err := s.fetchOrigin(ctx, *req.Origin, nil, robots.Google)
		if err != nil {
			return nil, err
		}
		if f.result.Policy != fetch.Conditional {
			return nil, noRules(f, "lint")
		}
		body, out.Fetch = f.body, f.info()
	}
	out.Findings = nonNil(robots.Lint(body))
	return out, nil
}

// fetch answers POST /api/fetch: the verdict for the URL under the
// robots.txt that governs it, fetched now, and that robots.txt.
func (s *server) fetch(ctx context.Context, w http.ResponseWriter, r *http.Request) (any, *apiError) {
	var req fetchRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return nil, err
	}
	mode, err := modeAndAgents(req.Mode, req.Agents)
	if err != nil {
		return nil, err
	}
	f, err := s.fetchOrigin(ctx, req.URL, req.Agents, mode)
	if err != nil {
		return nil, err
	}
	d := f.result.Agent(req.Agents...).Decide(req.URL)
	body := f.body[:min(len(f.body), maxInputBytes)]
	return fetchResponseJSON{
		verdictJSON:      fetchJSON(req.URL, d, f.result),
		fetchDetailsJSON: detailsOf(f.result),
		Body:             string(body),
		BodyB64:          rawB64(string(body)),
	}, nil
}

// fetchOrigin fetches the robots.txt that governs pageURL, named by the
// field "url" or "origin" of a request.
func (s *server) fetchOrigin(ctx context.Context, pageURL string, agents []string, mode robots.Mode) (*fetched, *apiError) {
	robotsURL, err := robotsURLOf(pageURL)
	if err != nil {
		return nil, err
	}
	return s.fetchRobots(ctx, robotsURL, agents, mode)
}

// noRules is the answer of explain and lint when the fetched robots.txt
// set a policy without rules: there is no file to explain or lint.
func noRules(f *fetched, what string) *apiError {
	r := f.result
	return &apiError{http.StatusUnprocessableEntity, fmt.Sprintf("%s: %s (%s): no rules to %s",
		r.URL, r.Policy, r.Reason, what)}
}
