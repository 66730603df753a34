package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
)

// exitUnreachable is fetch's exit code when some robots.txt could not be
// fetched at all: no usable response (DNS, connection, timeout, reset,
// invalid response).
const exitUnreachable = 3

const fetchSynopsis = `robots fetch [-a agent]... [--timeout D] [--mode google|rfc] URL...

Fetches the robots.txt that governs each URL (once per origin: scheme, host
and port) and says whether the crawler may fetch the URL, as Google's
crawler would: a 2xx body is parsed (conditional), a 4xx other than 429 or
more than 5 redirects allow everything (full allow), a 5xx, a 429 or a
network failure disallow everything (full disallow).

For each URL it prints the verdict and what decided it, then the robots.txt
URL, the HTTP status, the policy and how long the answer may be cached.
Each -a adds an agent to an ordered fallback list, most specific first.
Exits 0 when every URL is allowed, 1 when any is disallowed, 2 on usage
errors, 3 when a robots.txt could not be fetched at all (network failure).`

// fetchOptions are the parsed arguments of fetch.
type fetchOptions struct {
	agents  listFlag
	timeout time.Duration
	mode    modeFlag
	urls    []string
}

// runFetch runs "robots fetch".
func runFetch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, code := parseFetch(args, stderr)
	if opts == nil {
		return code
	}
	f := &fetch.Fetcher{
		Client:       &http.Client{},
		Timeout:      opts.timeout,
		ParseOptions: []robots.Option{opts.mode.option()},
	}
	checker := fetch.NewChecker(fetch.NewCache(f, fetch.CacheOptions{}))
	code = exitOK
	for _, u := range opts.urls {
		v, err := checker.DecideAgents(context.Background(), opts.agents, u)
		if err != nil { // the URLs were checked: this is unexpected
			fmt.Fprintf(stderr, "robots fetch: %v\n", err)
			return exitUsage
		}
		res := v.Result
		if !v.Allowed && code == exitOK {
			code = exitNegative
		}
		if unreachable(res) {
			code = exitUnreachable
		}
		fmt.Fprintf(stdout, "%s %s  (%s)\n", verdict(v.Allowed), u, fetchReason(v))
		fmt.Fprintf(stdout, "  %s\n", describe(res))
	}
	return code
}

// unreachable reports whether the answer comes from a network failure:
// the latest fetch got no usable response.
func unreachable(r *fetch.Result) bool {
	if r.LastFailure != nil {
		r = r.LastFailure
	}
	return r.Reason == fetch.ReasonNetwork
}

// fetchReason says what decided a verdict.
func fetchReason(v fetch.Verdict) string {
	if v.Result.Policy == fetch.Conditional {
		return reason(robots.Decision{Allowed: v.Allowed, Rule: v.Rule})
	}
	return v.Result.Policy.String() + ": " + v.Result.Reason.String()
}

// describe returns the line about a robots.txt answer: URL, status,
// policy, cache lifetime, and redirects or errors when there were some.
func describe(r *fetch.Result) string {
	status := "-"
	if r.Status != 0 {
		status = fmt.Sprint(r.Status)
	}
	parts := []string{
		"robots.txt: " + r.URL,
		"status: " + status,
		"policy: " + r.Policy.String(),
		"cache: " + r.Expires.Sub(r.FetchedAt).Round(time.Second).String(),
	}
	if r.Redirects > 0 {
		parts = append(parts, fmt.Sprintf("redirects: %d to %s", r.Redirects, r.FinalURL))
	}
	if r.Truncated {
		parts = append(parts, fmt.Sprintf("read: first %d bytes", r.Bytes))
	}
	if r.Err != nil {
		parts = append(parts, "error: "+r.Err.Error())
	}
	return strings.Join(parts, "  ")
}

// parseFetch parses fetch's arguments. When they do not make a run, it
// returns nil and the exit code to stop with.
func parseFetch(args []string, stderr io.Writer) (*fetchOptions, int) {
	opts := &fetchOptions{}
	fs := newFlagSet("fetch", fetchSynopsis, stderr)
	fs.Var(&opts.agents, "a", "crawler `agent` product token, e.g. Googlebot; repeat for a fallback list")
	fs.DurationVar(&opts.timeout, "timeout", 10*time.Second, "give up on a robots.txt after `duration` (redirects and body included); a robots.txt that times out is a network failure")
	fs.Var(&opts.mode, "mode", "how robots.txt is read: google (Google's parser, the default) or rfc (strict RFC 9309)")
	urls, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, flagExit(err)
	}
	if len(urls) == 0 {
		fmt.Fprintln(stderr, "robots fetch: no URL given")
		fs.Usage()
		return nil, exitUsage
	}
	if opts.timeout <= 0 {
		fmt.Fprintln(stderr, "robots fetch: --timeout must be positive")
		return nil, exitUsage
	}
	for _, u := range urls {
		if err := checkFetchURL(u); err != nil {
			fmt.Fprintf(stderr, "robots fetch: %v\n", err)
			return nil, exitUsage
		}
	}
	opts.urls = urls
	return opts, exitOK
}

// checkFetchURL reports why u cannot be checked: it has no origin, or its
// robots.txt is not fetched over http or https.
func checkFetchURL(u string) error {
	origin, err := robots.Origin(u)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(origin, "http://") && !strings.HasPrefix(origin, "https://") {
		return fmt.Errorf("%q: only http and https URLs can be fetched", u)
	}
	return nil
}
