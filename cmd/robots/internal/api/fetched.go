package api

import (
	"fmt"
	"strings"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
	prefs "github.com/fastrobots/robots/usage"
)

// Fetched is a robots.txt the server fetched: the fetcher's answer, and
// the body it parsed, which the fetcher does not keep and the tester shows
// in its editor and lints.
type Fetched struct {
	Result *fetch.Result
	// Body is the body read, up to robots.MaxBytes and one byte more, under
	// a conditional policy; empty otherwise.
	Body []byte
}

// FetchDetailsJSON is what the server adds to fetch --json's fields about
// a fetched robots.txt.
type FetchDetailsJSON struct {
	FinalURL  string `json:"final_url"`
	Redirects int    `json:"redirects"`
	// CacheSeconds is how long the answer may be kept, in seconds: the
	// freshness lifetime of a definite answer, the retry delay of a
	// failure.
	CacheSeconds int64 `json:"cache_seconds"`
	Bytes        int   `json:"bytes"`
	Truncated    bool  `json:"truncated"`
}

// fetchInfoJSON is the robots.txt answer that applied to a request that
// named an origin.
type fetchInfoJSON struct {
	RobotsTxtJSON
	FetchDetailsJSON
}

// robotsTxtOf returns fetch --json's fields about the answer r.
func robotsTxtOf(r *fetch.Result) *RobotsTxtJSON {
	j := &RobotsTxtJSON{RobotsTxt: r.URL, Status: r.Status, Policy: r.Policy.String(), Reason: r.Reason.String()}
	if r.Err != nil {
		j.FetchError = r.Err.Error()
	}
	return j
}

// DetailsOf returns the details of the answer r.
func DetailsOf(r *fetch.Result) FetchDetailsJSON {
	return FetchDetailsJSON{
		FinalURL: r.FinalURL, Redirects: r.Redirects,
		CacheSeconds: int64(r.Lifetime() / time.Second), Bytes: r.Bytes, Truncated: r.Truncated,
	}
}

// Info returns the answer's JSON form.
func (f *Fetched) Info() *fetchInfoJSON {
	return &fetchInfoJSON{*robotsTxtOf(f.Result), DetailsOf(f.Result)}
}

// DefaultUserAgent returns the User-Agent header fetch sends for the
// fallback list agents: the Transport's default for the first agent, or
// for none.
func DefaultUserAgent(agents []string) string {
	if len(agents) == 0 {
		return fetch.DefaultUserAgent("")
	}
	return fetch.DefaultUserAgent(agents[0])
}

// FetchVerdictJSON returns the --json form of the decision d for u under the
// robots.txt answer r, with the URL's usage use (fetch.Verdict.Usage).
func FetchVerdictJSON(u string, d robots.Decision, use prefs.Usage, r *fetch.Result) VerdictJSON {
	j := NewVerdictJSON(u, d, use)
	j.RobotsTxtJSON = &RobotsTxtJSON{RobotsTxt: r.URL, Status: r.Status, Policy: r.Policy.String(), Reason: r.Reason.String()}
	if r.Err != nil {
		j.FetchError = r.Err.Error()
	}
	return j
}

// CheckFetchURL reports why u cannot be checked: it has no origin, or its
// robots.txt is not fetched over http or https.
func CheckFetchURL(u string) error {
	origin, err := robots.Origin(u)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(origin, "http://") && !strings.HasPrefix(origin, "https://") {
		return fmt.Errorf("%q: only http and https URLs can be fetched", u)
	}
	return nil
}
