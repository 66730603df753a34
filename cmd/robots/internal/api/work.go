package api

import (
	"math"

	"github.com/fastrobots/robots"
)

// A request's work is counted, before it is done, in the work units of
// robots.Work: the engine's part from the parsed file (robots.Work), the
// rest from what the request holds, by the weights below. Each endpoint
// tells its Call the work it is about to do (Call.Admit), once the file it
// works on is parsed, so that a Call can refuse what is too much.

// Weights of the work of a request besides its checks, in work units.
const (
	// ParseByteWork is a byte of a robots.txt parsed, its crawler's groups
	// resolved and their rules read for robots.Work.
	ParseByteWork = 32
	// URLWork is a URL of a request besides its checks: decoded from the
	// request, tested for what no verdict can have, its result built.
	URLWork = 4_000
	// URLByteWork is a byte of a URL decoded, tested and written back,
	// escaped when it is a control byte or not UTF-8.
	URLByteWork = 64
	// AnswerByteWork is a byte of the answer encoded, up to its bound
	// (AnswerLimit).
	AnswerByteWork = 2
	// LintByteWork is a byte of a robots.txt linted, of the part Google
	// reads (robots.MaxBytes): the linter parses no more, and only tests
	// that the rest is blank. Its checks are linear in the file but for
	// those of precedence and usage, which stop at their budgets
	// (LintBudgetWork).
	LintByteWork = 1_400
	// LintBudgetWork is what the linter's budgeted checks cost at most
	// (lint's precedenceBudget and usageBudget steps).
	LintBudgetWork = 100_000_000
	// ReportByteWork is a byte of a robots.txt read for explain's report
	// of every line, and its selection and directives.
	ReportByteWork = 512
)

// ParseWork returns the work of parsing a robots.txt of n bytes.
func ParseWork(n int) int64 { return mul(int64(n), ParseByteWork) }

// LintWork returns the work of linting a robots.txt of n bytes.
func LintWork(n int) int64 {
	read := min(n, robots.MaxBytes)
	return add(add(mul(int64(read), LintByteWork), int64(n-read)), LintBudgetWork)
}

// AnswerWork returns the work of encoding the answer to a request that
// brought input bytes: at most its bound.
func AnswerWork(input int) int64 { return mul(int64(AnswerLimit(input)), AnswerByteWork) }

// FetchAnswerWork returns the work of encoding the answer of /api/fetch,
// whose robots.txt fetched has body bytes: the body as a JSON string, six
// bytes to a byte escaped at most, and in base64 when it is not UTF-8,
// and the verdict, within AnswerBaseBytes.
func FetchAnswerWork(body int) int64 {
	return mul(add(mul(int64(body), 8), AnswerBaseBytes), AnswerByteWork)
}

// CheckWork returns the work of answering urls with w's checks, for a
// robots.txt of bodyBytes: each URL is decided and its usage asked (two
// checks), and with explain it is explained besides (every rule matched),
// and the file's report given once.
func CheckWork(w robots.Work, bodyBytes int, urls []string, explain bool) int64 {
	const checks = 2
	longest := 0
	for _, u := range urls {
		longest = max(longest, len(u))
	}
	total := add(w.Setup(), w.ColdChecks(checks*(len(urls)+1), longest))
	if explain {
		total = add(total, add(mul(int64(bodyBytes), ReportByteWork), w.Explain(1)))
	}
	for _, u := range urls {
		n := len(u)
		one := add(mul(w.Check(n), checks), w.Usage(n))
		one = add(one, add(URLWork, mul(int64(n), URLByteWork)))
		if explain {
			one = add(one, w.Explain(n))
		}
		total = add(total, one)
	}
	return total
}

// mul is a*b for a, b ≥ 0, saturated at math.MaxInt64.
func mul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// add is a+b for a, b ≥ 0, saturated at math.MaxInt64.
func add(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
