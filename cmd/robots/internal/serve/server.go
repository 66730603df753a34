package serve

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

// serverConfig configures newServer. Zero durations mean the defaults.
type serverConfig struct {
	// allowPrivate lets fetches connect to any address (--allow-private).
	allowPrivate bool
	// policy, when set, decides which addresses fetches may connect to,
	// in place of the one allowPrivate implies.
	policy addrPolicy
	// fetchTimeout bounds one robots.txt fetch (fetchTimeout).
	fetchTimeout time.Duration
	// loopbackHosts refuses requests whose Host header is not a loopback
	// name or address: serve sets it when it listens on loopback.
	loopbackHosts bool
	// heavySlots bounds the requests doing heavy work at once
	// (heavySlots()).
	heavySlots int
	// slotWait bounds a small request's wait for a slot (slotWait).
	slotWait time.Duration
	// drainTimeout bounds the reading of a body refused for its size
	// (drainTimeout).
	drainTimeout time.Duration
	// bodyMemory bounds the request bodies held at once (maxBodyMemory).
	bodyMemory int64
}

// server is the handler of robots serve: the tester page and the API.
type server struct {
	client        *http.Client
	fetchTimeout  time.Duration
	loopbackHosts bool
	admission     *admission
	drainTimeout  time.Duration
	bodies        *bodyBudget
	mux           *http.ServeMux
}

// Handler returns the handler robots serve serves: the tester page at /
// and the API under /api/, with its admission and memory bounds. With
// allowPrivate its fetches may connect to loopback and private addresses,
// as --allow-private lets them. A program may mount it in a server of its
// own, whose timeouts and connection limits are then its own.
func Handler(allowPrivate bool) http.Handler {
	return newServer(serverConfig{allowPrivate: allowPrivate})
}

// newServer returns the handler robots serve serves with c.
func newServer(c serverConfig) *server {
	policy := c.policy
	if policy == nil && !c.allowPrivate {
		policy = publicOnly
	}
	s := &server{
		client:        &http.Client{Transport: recordingTransport{next: guardedTransport(policy)}},
		fetchTimeout:  orDefault(c.fetchTimeout, fetchTimeout),
		loopbackHosts: c.loopbackHosts,
		admission:     newAdmission(cmp.Or(c.heavySlots, heavySlots()), orDefault(c.slotWait, slotWait)),
		drainTimeout:  orDefault(c.drainTimeout, drainTimeout),
		bodies:        &bodyBudget{max: cmp.Or(c.bodyMemory, maxBodyMemory)},
		mux:           http.NewServeMux(),
	}
	for path, endpoint := range api.Endpoints {
		s.mux.Handle(path, s.api(shared(endpoint)))
	}
	s.mux.Handle(api.FetchPath, s.api(s.fetch))
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &api.Error{Status: http.StatusNotFound, Msg: fmt.Sprintf("no API at %s: see docs/serve.md", r.URL.Path)})
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
		writeError(w, &api.Error{Status: http.StatusMisdirectedRequest, Msg: fmt.Sprintf(
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
type apiFunc func(c *call) (api.Answer, *api.Error)

// shared returns the apiFunc of an endpoint of package api.
func shared(f func(api.Call) (api.Answer, *api.Error)) apiFunc {
	return func(c *call) (api.Answer, *api.Error) { return f(c) }
}

// call is one API request under way: its context, how many bytes it
// brought (its body, and the robots.txt fetched for it), which bound its
// answer, the work it was admitted for, the admission slot it holds, if
// any, and the bytes its fetches took of the server's memory bound.
type call struct {
	ctx     context.Context
	w       http.ResponseWriter
	r       *http.Request
	s       *server
	input   int
	release func()
	// work is the work admitted so far (Admit), counted in int64 and
	// saturated, so that no request wraps past maxWork on any
	// architecture; answerWork, when positive, is the work of encoding
	// the answer, counted in place of its bound's (api.AnswerWork).
	work, answerWork int64
	// fetchHeld is what the fetches of the call took of s.bodies.
	fetchHeld int64
	// bodyTooLarge is set when the body was cut at api.MaxRequestBytes: its
	// 413 is answered by refuseBody.
	bodyTooLarge bool
}

// Decode reads the request body into dst, as decodeJSON does, and counts
// its bytes.
func (c *call) Decode(dst any) *api.Error {
	n, err := decodeJSON(c.w, c.r, dst)
	c.input += n
	c.bodyTooLarge = err != nil && err.Status == http.StatusRequestEntityTooLarge
	if err != nil {
		return err
	}
	// The body is read: lift readTimeout, which would otherwise end the
	// request's context in the middle of work it was admitted to do. The
	// context still ends when the client goes.
	_ = http.NewResponseController(c.w).SetReadDeadline(time.Time{})
	return nil
}

// Admit admits work units more of the call's heavy work (see
// admission): it refuses a call whose work in all passes maxWork, and the
// first time takes a slot, or answers errBusy. The work of encoding the
// answer, up to its bound, is counted the first time. The call holds a
// slot once it returns nil.
func (c *call) Admit(work int64) *api.Error {
	if c.release == nil {
		answer := c.answerWork
		if answer <= 0 {
			answer = api.AnswerWork(c.input)
		}
		work = satAdd64(work, answer)
	}
	c.work = satAdd64(c.work, max(work, 0))
	if c.work > maxWork {
		return tooMuchWork(c.work)
	}
	if c.release != nil {
		return nil
	}
	release, err := c.s.admission.admit(c.ctx, c.work)
	if err != nil {
		return err
	}
	c.release = release
	return nil
}

// satAdd64 is a+b for a, b ≥ 0, saturated at math.MaxInt64.
func satAdd64(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// Context ends when the client goes: the work of a call is bounded by
// its size, when it is admitted, not by a deadline.
func (c *call) Context() context.Context { return c.ctx }

// FetchOrigin fetches the robots.txt that governs pageURL, as fetchOrigin
// does.
func (c *call) FetchOrigin(pageURL string, agents []string, mode robots.Mode) (*api.Fetched, *api.Error) {
	return c.s.fetchOrigin(c, pageURL, agents, mode)
}

// done gives back the slot the call holds, if any.
func (c *call) done() {
	if c.release != nil {
		c.release()
		c.release = nil
	}
}

// api returns the handler of an API endpoint: POST only, answering
// JSON. The answer is encoded whole, under an admission slot and within
// the answer bound, before a byte of it is sent: until then, an error can
// still be answered.
func (s *server) api(f apiFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, &api.Error{Status: http.StatusMethodNotAllowed, Msg: fmt.Sprintf("%s takes POST, not %s", r.URL.Path, r.Method)})
			return
		}
		if r.ContentLength > api.MaxRequestBytes {
			// Declared too large: refused before a byte of it is read.
			s.refuseBody(w, r, errBodyTooLarge)
			return
		}
		size := bodySize(r)
		if !s.bodies.take(size) {
			writeError(w, errBodiesBusy)
			return
		}
		c := &call{ctx: r.Context(), w: w, r: r, s: s}
		// The body, its decoded form and what was fetched for it are held
		// to the end.
		defer func() { s.bodies.give(size + c.fetchHeld) }()
		defer c.done() // should f panic: the slot must not be lost
		body, err := c.answer(f)
		c.done() // before sending: a slow client holds no slot
		if c.bodyTooLarge {
			s.refuseBody(w, r, err)
			return
		}
		// The time to write the answer starts now, however long the work
		// took: a request admitted is answered.
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(answerWriteTimeout))
		if err != nil {
			writeError(w, err)
			return
		}
		writeAnswer(w, body)
	})
}

// answer runs f and encodes its answer.
func (c *call) answer(f apiFunc) ([]byte, *api.Error) {
	a, err := f(c)
	if err != nil {
		return nil, err
	}
	if err := c.Admit(0); err != nil {
		return nil, err
	}
	return api.Encode(c.ctx, a, api.AnswerLimit(c.input))
}

// writeJSON sends v as the JSON answer, with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = api.NewJSONEncoder(w).Encode(v) // the client is gone or the write timed out: nobody to tell
}

// requestErrorJSON is the answer to a request that gets no result:
// {"error": "..."}. (errorJSON is the result of one URL that gets none.)
type requestErrorJSON struct {
	Error string `json:"error"`
}

// writeError sends err as {"error": "..."} with its status; a 503 says
// when to retry: the server may only have been busy.
func writeError(w http.ResponseWriter, err *api.Error) {
	if err.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds))
	}
	writeJSON(w, err.Status, requestErrorJSON{err.Msg})
}

// fetchResponseJSON is the answer of fetch: fetch --json's line for the
// URL, more about the fetch, and the body that was parsed.
type fetchResponseJSON struct {
	api.VerdictJSON
	api.FetchDetailsJSON
	Body    string `json:"body"`
	BodyB64 string `json:"body_b64,omitempty"`
}

// fetch answers POST /api/fetch: the verdict for the URL under the
// robots.txt that governs it, fetched now, and that robots.txt.
func (s *server) fetch(c *call) (api.Answer, *api.Error) {
	var req api.FetchRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	mode, err := api.ModeAndAgents(req.Mode, req.Agents)
	if err != nil {
		return nil, err
	}
	target, err := req.Target()
	if err != nil {
		return nil, err
	}
	f, err := s.fetchOrigin(c, target, req.Agents, mode)
	if err != nil {
		return nil, err
	}
	agent := f.Result.Agent(req.Agents...)
	var work robots.Work
	if a := agent.Robots(); a != nil {
		work = a.Work()
	}
	c.answerWork = api.FetchAnswerWork(len(f.Body))
	if err := c.Admit(satAdd64(api.ParseWork(len(f.Body)), api.CheckWork(work, 0, []string{target}, false))); err != nil {
		return nil, err
	}
	d := agent.Decide(target)
	use := agent.Usage(target).WithHeader(f.Result.ContentUsage) // as fetch.Verdict.Usage
	body := f.Body[:min(len(f.Body), cli.MaxInputBytes)]
	return api.PlainAnswer{V: fetchResponseJSON{
		VerdictJSON:      api.FetchVerdictJSON(target, d, use, f.Result),
		FetchDetailsJSON: api.DetailsOf(f.Result),
		Body:             string(body),
		BodyB64:          api.RawB64(string(body)),
	}}, nil
}

// fetchOrigin fetches the robots.txt that governs pageURL, named by the
// field "url" or "origin" of a request.
// The bytes of the body fetched count in the bound of c's answer.
func (s *server) fetchOrigin(c *call, pageURL string, agents []string, mode robots.Mode) (*api.Fetched, *api.Error) {
	robotsURL, err := robotsURLOf(pageURL)
	if err != nil {
		return nil, err
	}
	f, err := s.fetchRobots(c.ctx, robotsURL, agents, mode, &c.fetchHeld)
	if err != nil {
		return nil, err
	}
	c.input += len(f.Body)
	return f, nil
}
