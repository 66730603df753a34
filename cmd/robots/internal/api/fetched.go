package api

import (
	"time"

	"github.com/fastrobots/robots/fetch"
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
