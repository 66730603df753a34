package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/fastrobots/robots"
)

// Limits of one API request. A request past one is refused whole, with
// the status apiError gives.
const (
	// maxRequestBytes bounds a request body: 1 MiB holds a robots.txt of
	// the 500 KiB Google reads, escaped, or 10,000 URLs of 100 bytes.
	maxRequestBytes = 1 << 20
	// maxURLs bounds the URLs of one check or explain request.
	maxURLs = 10_000
	// maxAgents bounds the fallback list of agents of one request.
	maxAgents = 100
)

// apiError is an API answer that is not a result: an HTTP status and what
// went wrong, sent as {"error": "..."}.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

// badRequest returns a 400 error.
func badRequest(format string, args ...any) *apiError {
	return &apiError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
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

// fetchRequest is the body of /api/fetch: a URL whose robots.txt is
// fetched, and the crawler and mode the verdict for it is given for.
type fetchRequest struct {
	URL    string   `json:"url"`
	Agents []string `json:"agents"`
	Mode   string   `json:"mode"`
}

// decodeJSON reads the body of r, a JSON object, into dst: at most
// maxRequestBytes, no field dst lacks, no key twice, nothing after the
// object. The body is read whole first, so that the duplicate keys
// encoding/json lets through can be looked for in it. It returns the
// number of bytes read.
func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) (int, *apiError) {
	if err := checkJSONContentType(r.Header.Get("Content-Type")); err != nil {
		return 0, err
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	if err != nil {
		return len(body), jsonError(err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return len(body), jsonError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return len(body), badRequest("malformed JSON: data after the request object")
	}
	return len(body), checkDuplicateKeys(body)
}

// checkJSONContentType refuses a body that is not declared JSON. A page
// of another site can post a form or text/plain to the server without the
// browser asking the server first; it cannot post JSON so.
func checkJSONContentType(ct string) *apiError {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return &apiError{http.StatusUnsupportedMediaType, "the request body must be JSON, sent with Content-Type: application/json"}
	}
	return nil
}

// jsonError turns a decoding error into the answer that says what is
// wrong with the body.
func jsonError(err error) *apiError {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var netErr net.Error
	switch {
	case tooLarge(err):
		return &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", maxRequestBytes)}
	case errors.As(err, &netErr) && netErr.Timeout():
		return &apiError{http.StatusRequestTimeout, "the request body did not come in time"}
	case errors.Is(err, io.EOF):
		return badRequest("malformed JSON: empty body")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("malformed JSON: the body ends inside the JSON value")
	case errors.As(err, &syntax):
		return badRequest("malformed JSON at byte %d: %v", syntax.Offset, err)
	case errors.As(err, &typ) && typ.Field != "":
		return badRequest("field %q: a JSON %s where %s is wanted", typ.Field, typ.Value, jsonTypeName(typ.Type.String()))
	case errors.As(err, &typ):
		return badRequest("the body must be a JSON object, not a JSON %s", typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return badRequest("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return badRequest("malformed JSON: %v", err)
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
func parseMode(s string) (robots.Mode, *apiError) {
	if s == "" {
		return robots.Google, nil
	}
	var m modeFlag
	if err := m.Set(s); err != nil {
		return 0, badRequest("mode: unknown mode %s (want google or rfc)", quoteInput(s))
	}
	return robots.Mode(m), nil
}

// modeAndAgents reads the mode and checks the agents that a request
// naming both gives.
func modeAndAgents(mode string, agents []string) (robots.Mode, *apiError) {
	m, err := parseMode(mode)
	if err != nil {
		return m, err
	}
	return m, checkAgents(agents)
}

// checkAgents refuses a fallback list longer than maxAgents, and an
// agent holding a control byte (see checkAgentBytes).
func checkAgents(agents []string) *apiError {
	if len(agents) > maxAgents {
		return badRequest("agents: %d given, at most %d are accepted", len(agents), maxAgents)
	}
	for i, a := range agents {
		if err := checkAgentBytes(a); err != nil {
			return badRequest("agents[%d]: %v", i, err)
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

// checkURLCount refuses an empty URL list and one longer than maxURLs.
func checkURLCount(urls []string) *apiError {
	switch {
	case len(urls) == 0:
		return badRequest("urls: no URL given")
	case len(urls) > maxURLs:
		return badRequest("urls: %d given, at most %d are accepted in one request", len(urls), maxURLs)
	}
	return nil
}

// robotsText returns the robots.txt given as text or base64, and whether
// one was; it is an error to give more than one of text, base64 and
// origin, or none.
func robotsText(text, b64, origin *string) ([]byte, bool, *apiError) {
	given := 0
	for _, p := range []*string{text, b64, origin} {
		if p != nil {
			given++
		}
	}
	switch {
	case given == 0:
		return nil, false, badRequest("no robots.txt: give robotstxt, robotstxt_b64 or origin")
	case given > 1:
		return nil, false, badRequest("give one of robotstxt, robotstxt_b64 and origin, not several")
	case text != nil:
		return []byte(*text), true, nil
	case b64 != nil:
		body, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			return nil, false, badRequest("robotstxt_b64: %v", err)
		}
		return body, true, nil
	}
	return nil, false, nil
}

// robotsURLOf returns the URL of the robots.txt that governs pageURL, or
// why it cannot be fetched.
func robotsURLOf(pageURL string) (string, *apiError) {
	if err := checkFetchURL(pageURL); err != nil {
		return "", badRequest("%s", shortenEcho(err.Error(), pageURL))
	}
	u, err := robots.URLFor(pageURL)
	if err != nil {
		return "", badRequest("%s", shortenEcho(err.Error(), pageURL))
	}
	return u, nil
}
