package robots

// Policy is how the answer to a robots.txt request governs the URLs of its
// origin. StatusPolicy maps an HTTP status to it.
type Policy int

const (
	// FullAllow: every URL may be fetched, as when there is no robots.txt.
	FullAllow Policy = iota + 1
	// FullDisallow: no URL may be fetched.
	FullDisallow
	// Conditional: the rules of the robots.txt decide.
	Conditional
)

// String returns "full allow", "full disallow" or "conditional".
func (p Policy) String() string {
	switch p {
	case FullAllow:
		return "full allow"
	case FullDisallow:
		return "full disallow"
	case Conditional:
		return "conditional"
	}
	return "unknown"
}

// Reason is why a policy applies.
type Reason int

const (
	// ReasonOK: a 2xx response, or a file given to Parse (Conditional).
	ReasonOK Reason = iota + 1
	// ReasonUnavailable: a 4xx response other than 429 (FullAllow).
	ReasonUnavailable
	// ReasonRedirects: a 3xx that was not followed (past the redirect limit,
	// a loop, no usable Location, or a client that does not follow), or a
	// 304 to an unconditional request: treated as a 404 (FullAllow).
	ReasonRedirects
	// ReasonServerError: a 5xx response (FullDisallow).
	ReasonServerError
	// ReasonTooManyRequests: a 429 response (FullDisallow).
	ReasonTooManyRequests
	// ReasonNetwork: no usable response: DNS, connection or TLS failure,
	// timeout, reset, truncated or invalid response, a status outside
	// 200-599 (FullDisallow).
	ReasonNetwork
	// ReasonUnreachable: the origin has failed for over 30 days and was
	// never fetched (FullAllow); set by package fetch's Cache, not a status.
	ReasonUnreachable
)

// String describes the reason in a few words.
func (r Reason) String() string {
	switch r {
	case ReasonOK:
		return "fetched"
	case ReasonUnavailable:
		return "unavailable (4xx)"
	case ReasonRedirects:
		return "too many or broken redirects"
	case ReasonServerError:
		return "server error (5xx)"
	case ReasonTooManyRequests:
		return "too many requests (429)"
	case ReasonNetwork:
		return "network failure"
	case ReasonUnreachable:
		return "unreachable for too long, never fetched"
	}
	return "unknown"
}

// Failed reports whether the reason is a failure to get an answer from the
// origin (5xx, 429, network), as opposed to a definite answer.
func (r Reason) Failed() bool {
	return r == ReasonServerError || r == ReasonTooManyRequests || r == ReasonNetwork
}

// StatusPolicy returns the policy the final HTTP status of a robots.txt
// request sets, and why, by Google's table, which package fetch applies
// too (docs/crawling.md):
//
//	2xx              Conditional, ReasonOK: the body is parsed
//	3xx, 304 too     FullAllow, ReasonRedirects: a redirect that was not
//	                   followed leads nowhere, as a 404
//	4xx except 429   FullAllow, ReasonUnavailable
//	429              FullDisallow, ReasonTooManyRequests
//	5xx              FullDisallow, ReasonServerError
//	anything else    FullDisallow, ReasonNetwork: no valid response; 0 is
//	                   the status of a request that got no response at all
func StatusPolicy(code int) (Policy, Reason) {
	switch {
	case code >= 200 && code <= 299:
		return Conditional, ReasonOK
	case code >= 300 && code <= 399:
		return FullAllow, ReasonRedirects
	case code == 429:
		return FullDisallow, ReasonTooManyRequests
	case code >= 400 && code <= 499:
		return FullAllow, ReasonUnavailable
	case code >= 500 && code <= 599:
		return FullDisallow, ReasonServerError
	}
	return FullDisallow, ReasonNetwork
}
