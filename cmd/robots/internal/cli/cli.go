// Package cli holds what the commands of robots share at their edges:
// their exit codes, flags and usage text, how they read a robots.txt and
// lines of input within bounds, how they write answers and error lines,
// and the progress line of a long run. The commands themselves (package
// main, and the serve and survey packages) call it; it decides nothing
// about robots.txt.
package cli

// Exit codes shared by the commands.
const (
	ExitOK       = 0 // success; for check, every URL is allowed
	ExitNegative = 1 // check, explain, fetch: some URL is disallowed; lint: an error; survey: a capture could not be read
	ExitBadQuery = 1 // eval, report --jsonl: some line was not a valid query
	ExitUsage    = 2 // bad arguments, unreadable input, or a URL holding a NUL byte
	// ExitUnreachable is fetch's exit code when some robots.txt could not
	// be fetched at all: no usable response (DNS, connection, timeout,
	// reset, invalid response).
	ExitUnreachable = 3
)
