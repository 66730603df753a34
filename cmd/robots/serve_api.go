package main

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
	prefs "github.com/fastrobots/robots/usage"
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
	// heavySlots bounds the requests doing heavy work at once
	// (heavySlots()); admissionWait is how long a request waits for a
	// slot (admissionWait).
	heavySlots    int
	admissionWait time.Duration
}

// server is the handler of robots serve: the tester page and the API.
type server struct {
	client         *http.Client
	requestTimeout time.Duration
	fetchTimeout   time.Duration
	loopbackHosts  bool
	admission      *admission
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
		admission:      newAdmission(cmp.Or(c.heavySlots, heavySlots()), orDefault(c.admissionWait, admissionWait)),
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

// apiFunc answers one API request c: the answer to encode, or an error.
type apiFunc func(c *call) (answer, *apiError)

// call is one API request under way: its deadline, how many bytes it
// brought (its body, and the robots.txt fetched for it), which bound its
// answer, and the admission slot it holds, if any.
type call struct {
	ctx     context.Context
	w       http.ResponseWriter
	r       *http.Request
	s       *server
	input   int
	release func()
}

// decode reads the request body into dst, as decodeJSON does, and counts
// its bytes.
func (c *call) decode(dst any) *apiError {
	n, err := decodeJSON(c.w, c.r, dst)
	c.input += n
	return err
}

// admit waits for a slot of heavy work (see admission); it holds one
// once it returns nil.
func (c *call) admit() *apiError {
	if c.release != nil {
		return nil
	}
	release, err := c.s.admission.acquire(c.ctx)
	if err != nil {
		return err
	}
	c.release = release
	return nil
}

// done gives back the slot the call holds, if any.
func (c *call) done() {
	if c.release != nil {
		c.release()
		c.release = nil
	}
}

// api returns the handler of an API endpoint: POST only, within the
// request deadline, answering JSON. The answer is encoded whole, under an
// admission slot and within the deadline and the answer bound, before a
// byte of it is sent: until then, an error can still be answered.
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
		c := &call{ctx: ctx, w: w, r: r, s: s}
		defer c.done() // should f panic: the slot must not be lost
		body, err := c.answer(f)
		c.done() // before sending: a slow client holds no slot
		if err != nil {
			writeError(w, err)
			return
		}
		writeAnswer(w, body)
	})
}

// answer runs f and encodes its answer.
func (c *call) answer(f apiFunc) ([]byte, *apiError) {
	a, err := f(c)
	if err != nil {
		return nil, err
	}
	if err := c.admit(); err != nil {
		return nil, err
	}
	return encodeAnswer(c.ctx, a, answerLimit(c.input))
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

// writeError sends err as {"error": "..."} with its status; a 503 says
// when to retry: the server may only have been busy.
func writeError(w http.ResponseWriter, err *apiError) {
	if err.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds))
	}
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

// fetchResponseJSON is the answer of fetch: fetch --json's line for the
// URL, more about the fetch, and the body that was parsed.
type fetchResponseJSON struct {
	verdictJSON
	fetchDetailsJSON
	Body    string `json:"body"`
	BodyB64 string `json:"body_b64,omitempty"`
}

// check answers POST /api/check: {"fetch": ..., "results": [...]}, a
// verdict for each URL, in the order given; fetch when an origin was
// fetched.
func (s *server) check(c *call) (answer, *apiError) {
	q, err := s.query(c)
	if err != nil {
		return nil, err
	}
	d := q.decider()
	return objectAnswer{heads: q.heads(), name: "results", count: len(q.urls), item: func(i int) (any, error) {
		u := q.urls[i]
		if bad := q.checkURL(u); bad != nil {
			return newErrorJSON(bad), nil
		}
		return newVerdictJSON(u, d.Decide(u), d.Usage(u)), nil
	}}, nil
}

// maxMatchesShown bounds the matching rules an explanation of the API
// lists; more_matches counts the others. The winner is always given.
const maxMatchesShown = 100

// explain answers POST /api/explain: {"fetch": ..., "selection": ...,
// "directives": ..., "results": [...]}: the groups that apply and what
// they ask besides rules, once, and an explanation for each URL.
func (s *server) explain(c *call) (answer, *apiError) {
	q, err := s.query(c)
	if err != nil {
		return nil, err
	}
	if q.robots == nil {
		return nil, noRules(q.fetched, "explain")
	}
	agent := q.robots.Agent(q.agents...)
	sel := selectionJSON(q.robots.Explain(q.agents, "/").Selection)
	heads := append(q.heads(), namedValue{"selection", sel}, namedValue{"directives", newDirectivesJSON(q.robots, agent)})
	return objectAnswer{heads: heads, name: "results", count: len(q.urls), item: func(i int) (any, error) {
		u := q.urls[i]
		if bad := q.checkURL(u); bad != nil {
			return newErrorJSON(bad), nil
		}
		return cappedExplainJSON(u, agent.Explain(u), agent.Usage(u), maxMatchesShown), nil
	}}, nil
}

// cappedExplainJSON is explainResultJSON listing the first max matches
// only, and the winner wherever it stands.
func cappedExplainJSON(u string, e robots.Explanation, use prefs.Usage, max int) explainJSONOut {
	all, winner := e.Matches, e.Winner
	if len(all) > max {
		e.Matches = all[:max]
		if winner >= max {
			e.Winner = -1
		}
	}
	out := explainResultJSON(u, e, use)
	out.MoreMatches = len(all) - len(e.Matches)
	if out.Winner == nil && winner >= 0 {
		w := matchJSON(all[winner])
		out.Winner = &w
	}
	return out
}

// lint answers POST /api/lint: the findings of the robots.txt.
func (s *server) lint(c *call) (answer, *apiError) {
	var req lintRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	body, isText, err := robotsText(req.RobotsTxt, req.RobotsTxtB64, req.Origin)
	if err != nil {
		return nil, err
	}
	var fetchInfo any
	if !isText {
		f, err := s.fetchOrigin(c, *req.Origin, nil, robots.Google)
		if err != nil {
			return nil, err
		}
		if f.result.Policy != fetch.Conditional {
			return nil, noRules(f, "lint")
		}
		body, fetchInfo = f.body, f.info()
	}
	if err := c.admit(); err != nil {
		return nil, err
	}
	findings := robots.Lint(body)
	return objectAnswer{heads: []namedValue{{"fetch", fetchInfo}}, name: "findings", count: len(findings),
		item: func(i int) (any, error) { return findings[i], nil }}, nil
}

// fetch answers POST /api/fetch: the verdict for the URL under the
// robots.txt that governs it, fetched now, and that robots.txt.
func (s *server) fetch(c *call) (answer, *apiError) {
	var req fetchRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	mode, err := modeAndAgents(req.Mode, req.Agents)
	if err != nil {
		return nil, err
	}
	f, err := s.fetchOrigin(c, req.URL, req.Agents, mode)
	if err != nil {
		return nil, err
	}
	if err := c.admit(); err != nil {
		return nil, err
	}
	agent := f.result.Agent(req.Agents...)
	d := agent.Decide(req.URL)
	use := agent.Usage(req.URL).WithHeader(f.result.ContentUsage) // as fetch.Verdict.Usage
	body := f.body[:min(len(f.body), maxInputBytes)]
	return plainAnswer{fetchResponseJSON{
		verdictJSON:      fetchJSON(req.URL, d, use, f.result),
		fetchDetailsJSON: detailsOf(f.result),
		Body:             string(body),
		BodyB64:          rawB64(string(body)),
	}}, nil
}

// fetchOrigin fetches the robots.txt that governs pageURL, named by the
// field "url" or "origin" of a request.
// The bytes of the body fetched count in the bound of c's answer.
func (s *server) fetchOrigin(c *call, pageURL string, agents []string, mode robots.Mode) (*fetched, *apiError) {
	robotsURL, err := robotsURLOf(pageURL)
	if err != nil {
		return nil, err
	}
	f, err := s.fetchRobots(c.ctx, robotsURL, agents, mode)
	if err != nil {
		return nil, err
	}
	c.input += len(f.body)
	return f, nil
}

// noRules is the answer of explain and lint when the fetched robots.txt
// set a policy without rules: there is no file to explain or lint.
func noRules(f *fetched, what string) *apiError {
	r := f.result
	return &apiError{http.StatusUnprocessableEntity, fmt.Sprintf("%s: %s (%s): no rules to %s",
		r.URL, r.Policy, r.Reason, what)}
}
