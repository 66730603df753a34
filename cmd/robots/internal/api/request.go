package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/fastrobots/robots"
)

// Limits of one API request. A request past one is refused whole, with
// the status Error gives.
const (
	// MaxRequestBytes bounds a request body: 1 MiB holds a robots.txt of
	// the 500 KiB Google reads, escaped, or 10,000 URLs of 100 bytes.
	MaxRequestBytes = 1 << 20
	// MaxURLs bounds the URLs of one check or explain request.
	MaxURLs = 10_000
	// MaxAgents bounds the fallback list of agents of one request.
	MaxAgents = 100
)

// Error is an API answer that is not a result: an HTTP status and what
// went wrong, sent as {"error": "..."}.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// BadRequest returns a 400 error.
func BadRequest(format string, args ...any) *Error {
	return &Error{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// robotsRequest is the body of /api/check, /api/explain and /api/lint:
// the robots.txt, given as text, as base64 bytes, or as the origin to
// fetch it from (exactly one of the three), and for check and explain the
// agents, the URLs and the mode.
type robotsRequest struct {
	RobotsTxt    *string  `json:"robotstxt"`
	RobotsTxtB64 *string  `json:"robotstxt_b64"`
	Origin       *string  `json:"origin"`
	Agents       []string `json:"agents"`
	URLs         []string `json:"urls"`
	Mode         string   `json:"mode"`
}

// lintRequest is the body of /api/lint: a robots.txt, as robotsRequest
// gives it. Lint reads as Google reads; it takes no mode.
type lintRequest struct {
	RobotsTxt    *string `json:"robotstxt"`
	RobotsTxtB64 *string `json:"robotstxt_b64"`
	Origin       *string `json:"origin"`
}

// FetchRequest is the body of /api/fetch: a URL whose robots.txt is
// fetched, named origin as check, explain and lint name it, or url, its
// first name, and the crawler and mode the verdict for it is given for.
type FetchRequest struct {
	Origin *string  `json:"origin"`
	URL    *string  `json:"url"`
	Agents []string `json:"agents"`
	Mode   string   `json:"mode"`
}

// Target returns the URL the request names, by either name.
func (r *FetchRequest) Target() (string, *Error) {
	switch {
	case r.Origin != nil && r.URL != nil:
		return "", BadRequest("give origin or url, not both")
	case r.Origin != nil:
		return *r.Origin, nil
	case r.URL != nil:
		return *r.URL, nil
	}
	return "", BadRequest("no origin: give the URL of the site or page whose robots.txt to fetch")
}

// DecodeBody reads body, a request body read whole, into dst: a JSON
// object, no field dst lacks, no key twice, nothing after the object.
// The body is read whole first, so that the duplicate keys encoding/json
// lets through can be looked for in it.
func DecodeBody(body []byte, dst any) *Error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return JSONError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return BadRequest("malformed JSON: data after the request object")
	}
	return checkDuplicateKeys(body)
}

// JSONError turns a decoding error into the answer that says what is
// wrong with the body.
func JSONError(err error) *Error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var netErr net.Error
	switch {
	case tooLarge(err):
		return &Error{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", MaxRequestBytes)}
	case errors.As(err, &netErr) && netErr.Timeout():
		return &Error{http.StatusRequestTimeout, "the request body did not come in time"}
	case errors.Is(err, io.EOF):
		return BadRequest("malformed JSON: empty body")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return BadRequest("malformed JSON: the body ends inside the JSON value")
	case errors.As(err, &syntax):
		return BadRequest("malformed JSON at byte %d: %v", syntax.Offset, err)
	case errors.As(err, &typ) && typ.Field != "":
		return BadRequest("field %q: a JSON %s where %s is wanted", typ.Field, typ.Value, jsonTypeName(typ.Type.String()))
	case errors.As(err, &typ):
		return BadRequest("the body must be a JSON object, not a JSON %s", typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return BadRequest("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return BadRequest("malformed JSON: %v", err)
}

// tooLarge reports whether err is http.MaxBytesReader's.
func tooLarge(err error) bool {
	var mb *http.MaxBytesError
	return errors.As(err, &mb)
}

// jsonTypeName names a Go type of the request structs as JSON does.
func jsonTypeName(goType string) string {
	switch goType {
	case "string", "*string":
		return "a string"
	case "[]string":
		return "an array of strings"
	}
	return goType
}

// parseMode reads the mode field: "google" (the default when empty) or
// "rfc", in any case.
func parseMode(s string) (robots.Mode, *Error) {
	if s == "" {
		return robots.Google, nil
	}
	m, ok := ModeNamed(s)
	if !ok {
		return 0, BadRequest("mode: unknown mode %s (want google or rfc)", QuoteInput(s))
	}
	return m, nil
}

// ModeNamed returns the mode named "google" or "rfc", in any case, and
// whether s is one of them; the --mode flag reads the same names.
func ModeNamed(s string) (robots.Mode, bool) {
	switch strings.ToLower(s) {
	case "google":
		return robots.Google, true
	case "rfc":
		return robots.RFC, true
	}
	return 0, false
}

// ModeAndAgents reads the mode and checks the agents that a request
// naming both gives.
func ModeAndAgents(mode string, agents []string) (robots.Mode, *Error) {
	m, err := parseMode(mode)
	if err != nil {
		return m, err
	}
	return m, checkAgents(agents)
}

// checkAgents refuses a fallback list longer than MaxAgents, and an
// agent holding a control byte (see checkAgentBytes).
func checkAgents(agents []string) *Error {
	if len(agents) > MaxAgents {
		return BadRequest("agents: %d given, at most %d are accepted", len(agents), MaxAgents)
	}
	for i, a := range agents {
		if err := checkAgentBytes(a); err != nil {
			return BadRequest("agents[%d]: %v", i, err)
		}
	}
	return nil
}

// checkAgentBytes reports why agent cannot name a crawler: it holds a
// control byte other than tab (CR, LF, NUL and DEL among them). No HTTP
// header may hold one (RFC 9110 section 5.5), and fetches send the first
// agent in the User-Agent header: the fetch would fail before sending
// anything and read as a network failure. Check and explain refuse the
// same agents, so that one request gets one answer on every endpoint.
func checkAgentBytes(agent string) error {
	for i := 0; i < len(agent); i++ {
		if c := agent[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return fmt.Errorf("control byte 0x%02x at byte %d: an agent is a name sent in the User-Agent header, which cannot hold one", c, i)
		}
	}
	return nil
}

// checkURLCount refuses an empty URL list and one longer than MaxURLs.
func checkURLCount(urls []string) *Error {
	switch {
	case len(urls) == 0:
		return BadRequest("urls: no URL given")
	case len(urls) > MaxURLs:
		return BadRequest("urls: %d given, at most %d are accepted in one request", len(urls), MaxURLs)
	}
	return nil
}

// robotsText returns the robots.txt given as text or base64, and whether
// one was; it is an error to give more than one of text, base64 and
// origin, or none.
func robotsText(text, b64, origin *string) ([]byte, bool, *Error) {
	given := 0
	for _, p := range []*string{text, b64, origin} {
		if p != nil {
			given++
		}
	}
	switch {
	case given == 0:
		return nil, false, BadRequest("no robots.txt: give robotstxt, robotstxt_b64 or origin")
	case given > 1:
		return nil, false, BadRequest("give one of robotstxt, robotstxt_b64 and origin, not several")
	case text != nil:
		return []byte(*text), true, nil
	case b64 != nil:
		body, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			return nil, false, BadRequest("robotstxt_b64: %v", err)
		}
		return body, true, nil
	}
	return nil, false, nil
}
