package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/fetch"
)

const fetchSynopsis = `robots fetch [-a agent]... [--user-agent UA] [--timeout D] [--mode google|rfc] [--json] URL...

Fetches the robots.txt that governs each URL (once per origin: scheme, host
and port) and says whether the crawler may fetch the URL, as Google's
crawler would: a 2xx body is parsed (conditional), a 4xx other than 429 or
more than 5 redirects allow everything (full allow), a 5xx, a 429 or a
network failure disallow everything (full disallow).

For each URL it prints the verdict and what decided it, then the robots.txt
URL, the HTTP status, the policy and how long the answer may be cached.
Each -a adds an agent to an ordered fallback list, most specific first.
The requests carry the User-Agent header --user-agent gives; by default
"AGENT/1.0 (+https://github.com/fastrobots/robots)", where AGENT is the
first -a (fastrobots without one), so that sites see which crawler asks.

With --json, writes one JSON object a line for each URL, check's fields
(url, allowed, line, rule) and the robots.txt answer: robots_txt (its URL),
status (0 when there was no response), policy, reason, and fetch_error
when the fetch failed.

Exits 0 when every URL is allowed, 1 when any is disallowed, 2 on usage
errors, 3 when a robots.txt could not be fetched at all (network failure).`

// fetchOptions are the parsed arguments of fetch.
type fetchOptions struct {
	agents    cli.ListFlag
	userAgent string
	timeout   time.Duration
	mode      cli.ModeFlag
	json      bool
	urls      []string
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
		UserAgent:    opts.userAgent,
		ParseOptions: []robots.Option{opts.mode.Option()},
	}
	checker := fetch.NewChecker(fetch.NewCache(f, fetch.CacheOptions{}))
	out := cli.NewOutput("fetch", stdout, stderr)
	enc := api.NewJSONEncoder(out.W)
	code = cli.ExitOK
	for _, u := range opts.urls {
		v, err := checker.DecideAgents(context.Background(), opts.agents, u)
		if err != nil { // the URLs were checked: this is unexpected
			out.Errorf("%v", err)
			return cli.ExitUsage
		}
		if !v.Allowed && code == cli.ExitOK {
			code = cli.ExitNegative
		}
		if unreachable(v.Result) {
			code = cli.ExitUnreachable
		}
		d := fetchDecision(v)
		if opts.json {
			err = enc.Encode(api.FetchVerdictJSON(u, d, v.Usage, v.Result))
		} else {
			_, err = fmt.Fprintf(out.W, "%s %s  (%s)\n  %s\n", verdict(v.Allowed), u, fetchReason(d, v.Result), describe(v.Result))
		}
		if err != nil {
			out.Errorf("%v", err)
			return cli.ExitUsage
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "robots fetch: %v\n", err)
		return cli.ExitUsage
	}
	return code
}

// fetchDecision returns the checker's verdict v as a Decision.
func fetchDecision(v fetch.Verdict) robots.Decision {
	return robots.Decision{Allowed: v.Allowed, Rule: v.Rule, Empty: v.Empty}
}

// unreachable reports whether the answer comes from a network failure:
// the latest fetch got no usable response.
func unreachable(r *fetch.Result) bool {
	if r.LastFailure != nil {
		r = r.LastFailure
	}
	return r.Reason == fetch.ReasonNetwork
}

// fetchReason says what decided d under the robots.txt answer r.
func fetchReason(d robots.Decision, r *fetch.Result) string {
	if r.Policy == fetch.Conditional {
		return reason(d)
	}
	return r.Policy.String() + ": " + r.Reason.String()
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
	fs := cli.NewFlagSet("fetch", fetchSynopsis, stderr)
	fs.Var(&opts.agents, "a", "crawler `agent` product token, e.g. Googlebot; repeat for a fallback list")
	fs.StringVar(&opts.userAgent, "user-agent", "", "send `UA` as the User-Agent header (default: the first -a, then /1.0 "+fetch.UserAgentComment+")")
	fs.BoolVar(&opts.json, "json", false, "write one JSON object per URL")
	fs.DurationVar(&opts.timeout, "timeout", 10*time.Second, "give up on a robots.txt after `duration` (redirects and body included); a robots.txt that times out is a network failure")
	fs.Var(&opts.mode, "mode", "how robots.txt is read: google (Google's parser, the default) or rfc (strict RFC 9309)")
	urls, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return nil, cli.FlagExit(err)
	}
	if len(urls) == 0 {
		fmt.Fprintln(stderr, "robots fetch: no URL given")
		fs.Usage()
		return nil, cli.ExitUsage
	}
	if opts.timeout <= 0 {
		fmt.Fprintln(stderr, "robots fetch: --timeout must be positive")
		return nil, cli.ExitUsage
	}
	if !cli.Given(fs, "user-agent") {
		opts.userAgent = api.DefaultUserAgent(opts.agents)
	}
	if err := checkHeaderValue(opts.userAgent); err != nil {
		fmt.Fprintf(stderr, "robots fetch: User-Agent %q: %v\n", opts.userAgent, err)
		return nil, cli.ExitUsage
	}
	for _, u := range urls {
		if err := api.CheckFetchURL(u); err != nil {
			fmt.Fprintf(stderr, "robots fetch: %v\n", err)
			return nil, cli.ExitUsage
		}
	}
	opts.urls = urls
	return opts, cli.ExitOK
}

// checkHeaderValue reports why v cannot be sent as the value of an HTTP
// header (RFC 9110 section 5.5): it is empty, or holds a control byte.
func checkHeaderValue(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("empty")
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return fmt.Errorf("control byte 0x%02x at byte %d", c, i)
		}
	}
	return nil
}
