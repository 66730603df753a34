package api

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/fastrobots/robots"
	prefs "github.com/fastrobots/robots/usage"
)

// RawB64 returns s base64-encoded when s is not valid UTF-8, "" when it
// is. encoding/json writes each byte of a string that is not UTF-8 as
// U+FFFD, which loses it; the *_b64 field beside such a string keeps its
// exact bytes, and is left out when the string says it all.
func RawB64(s string) string {
	if utf8.ValidString(s) {
		return ""
	}
	return base64.StdEncoding.EncodeToString([]byte(s))
}

// NewJSONEncoder returns an encoder writing one object a line to w, with
// '<', '>' and '&' as they are.
func NewJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// VerdictJSON is one line of check --json and fetch --json: the verdict
// for a URL, and the line Google's reference parser names for it
// (Decision.Line) with the rule on it: the rule that decided, or, with
// Undecided set, an empty rule that matched every path and decided
// nothing; "" and line 0 when there is neither.
type VerdictJSON struct {
	URL       string `json:"url"`
	URLB64    string `json:"url_b64,omitempty"`
	Allowed   bool   `json:"allowed"`
	Line      int    `json:"line"`
	Rule      string `json:"rule"`
	RuleB64   string `json:"rule_b64,omitempty"`
	Undecided bool   `json:"undecided,omitempty"`
	Implicit  bool   `json:"implicit,omitempty"`
	// Warning says how the URL departs from a URL or a path (URLWarning).
	Warning string     `json:"warning,omitempty"`
	Usage   *UsageJSON `json:"usage,omitempty"` // usageout.go
	*RobotsTxtJSON
}

// RobotsTxtJSON is what fetch --json adds to a verdict: the robots.txt
// answer that applied.
type RobotsTxtJSON struct {
	RobotsTxt  string `json:"robots_txt"`
	Status     int    `json:"status"` // 0 when there was no response
	Policy     string `json:"policy"`
	Reason     string `json:"reason"`
	FetchError string `json:"fetch_error,omitempty"`
}

// NewVerdictJSON returns the --json form of the verdict d for u, with
// the URL's usage use.
func NewVerdictJSON(u string, d robots.Decision, use prefs.Usage) VerdictJSON {
	v := VerdictJSON{URL: u, URLB64: RawB64(u), Allowed: d.Allowed, Line: d.Line(), Implicit: d.Implicit, Warning: URLWarning(u), Usage: NewUsageJSON(use)}
	rule := d.Rule
	if rule == nil {
		rule, v.Undecided = d.Empty, d.Empty != nil
	}
	if rule != nil {
		v.Rule = RuleString(rule)
		v.RuleB64 = RawB64(v.Rule)
	}
	return v
}

// errorJSON is the --json line for a URL no verdict can be given for.
type errorJSON struct {
	URL    string `json:"url,omitempty"`
	URLB64 string `json:"url_b64,omitempty"`
	Error  string `json:"error"`
}

// NewErrorJSON returns the --json form of a bad URL.
func NewErrorJSON(e *BadURLError) errorJSON {
	if errors.Is(e.Err, ErrLineTooLong) {
		return errorJSON{Error: e.Error()} // a prefix is no URL
	}
	return errorJSON{URL: e.URL, URLB64: RawB64(e.URL), Error: e.Error()}
}
