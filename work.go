package robots

import (
	"math"
	"math/bits"
	"strings"

	"github.com/fastrobots/robots/compile"
)

// Work bounds what an Agent's checks and explanations cost, in work units,
// from its rules alone, before any check is made: a service that answers
// many URLs at once can refuse a request that would cost too much, and
// admit any other knowing how long it will take at most.
//
// A work unit is the engine's cheapest step, one byte of a path read in
// the automaton's table. Every other step is counted as the units it
// costs more, by the weights below, so that on every file the benchmarks
// know, hostile ones included, a unit takes at most about a nanosecond of
// a core of the machine of docs/benchmarks.md (BenchmarkWorkBound measures
// it). Each bound follows the engine's own (package compile, CheckCost):
//
//   - Setup: once for any number of checks, building the automaton's
//     program, the segment scanner, the cold tier's index and the usage
//     lines;
//   - ColdChecks: the first checks, tested rule by rule, each within the
//     engine's bound on a cold check, unless the agent is compiled;
//   - Check: one check past those, a walk of the automaton and, past its
//     budget, the segment scanner's, linear in the URL;
//   - Usage: what Agent.Usage adds to a check, its usage lines tried;
//   - Explain: what Agent.Explain adds, every rule matched against the URL.
//
// The automaton's lazy states are left out: building a state's transitions
// steps through every position it holds, however few bytes it stores, and
// a wide state's transitions lead mostly to states already built, which
// cost its budget nothing, so the budget bounds their memory, not their
// work. Work bounds the checks of an agent parsed with
// WithAutomatonBudget(ScannerBudget), whose checks past the cold ones run
// on the segment scanner; for any other, Setup is math.MaxInt64.
//
// Every bound saturates at math.MaxInt64 rather than wrap, on every
// architecture. The zero Work is that of an Agent without rules.
type Work struct {
	cost compile.CheckCost
	// usage lines of the agent's groups: their number and bytes, and how
	// many are patterns with a star and their bytes, which are matched in
	// full; extras is every line of the groups besides rules, which are
	// read for them once.
	usageRules, usageBytes, usageStars, usageStarBytes, extras int
	// selection is what Agent.Explain reads of the user-agent lines of
	// the agent's groups, for every URL: their count and bytes, and the
	// groups.
	selectLines, selectBytes, groups int
	// conditional: the agent's rules decide (Policy Conditional);
	// compiled: the automaton was built when Work was read, and no check
	// is cold.
	conditional, compiled bool
}

// ScannerBudget is the automaton budget of a parse whose checks Work
// bounds: no state fits in it, so every check that is not cold runs on the
// segment scanner, in time linear in the URL, and nothing is built but the
// scanner. On large real files this is also faster than building states
// (docs/serve.md).
const ScannerBudget = 1

// Weights of the steps of a check, in work units.
const (
	// walkWork is a byte of a path read in the automaton: a table load,
	// and a second reading past its budget, when the check restarts on the
	// scanner.
	walkWork = 2
	// scanByteWork is a byte the segment scanner reads, besides its
	// pieces (scanRunWork) and the steps of its patterns (scanStepWork):
	// a step of the Aho–Corasick automaton and of its timing wheel.
	scanByteWork = 8
	// scanRunWork is a run of pieces the scanner tests at a byte, or a
	// step of the binary search narrowing the prefixes.
	scanRunWork = 4
	// scanBeginWork is a pattern the scanner begins: it matches, or
	// waits for its first piece.
	scanBeginWork = 8
	// scanStepWork is a piece a pattern of the scanner takes: it moves to
	// the next, in its queue; each touches the pattern's state and a
	// queue, most often cache misses on a large file.
	scanStepWork = 20
	// coldByteWork is a byte a cold check compares, as the engine's bound
	// counts them (compile's coldWork).
	coldByteWork = 2
	// positionWork is a position of the automaton's program, built once,
	// and of the scanner's tables built from the same patterns.
	positionWork = 128
	// matchWork is a usage line's pattern tried against a URL: a call,
	// and a test of its first bytes.
	matchWork = 32
	// explainRuleWork is a rule Explain matches against a URL: its
	// patterns listed, matched, and kept when they match.
	explainRuleWork = 128
	// pieceWork is a piece of a pattern Explain searches for in the URL.
	pieceWork = 16
	// usageLineWork is a usage line read once: its value parsed, and its
	// pattern sorted among the others.
	usageLineWork = 1024
	// extraWork is a line of a group besides its rules, read once for the
	// usage lines.
	extraWork = 64
	// matchByteWork is a byte of a URL or a pattern read by such a try.
	matchByteWork = 2
	// selectionWork is an agent line or a group Explain reads, for every
	// URL, to say why the groups apply.
	selectionWork = 64
)

// Work returns the bound on the work of a's checks. It reads a's rules
// once, about as long as parsing them takes.
func (a *Agent) Work() Work {
	w := Work{cost: a.rules.CheckCost(), conditional: a.Policy() == Conditional, compiled: a.rules.Compiled()}
	w.extras = len(a.file().Preamble())
	for _, gi := range a.selected() {
		w.groups++
		for _, d := range a.file().Extras(gi) {
			w.extras++
			if !strings.EqualFold(d.Key, keyContentUsage) {
				continue
			}
			w.usageRules++
			w.usageBytes = satAddInt(w.usageBytes, len(d.Value))
			if strings.IndexByte(d.Value, '*') >= 0 {
				w.usageStars++
				w.usageStarBytes = satAddInt(w.usageStarBytes, len(d.Value))
			}
		}
		for _, l := range a.groups()[gi].Agents {
			w.selectLines++
			w.selectBytes = satAddInt(w.selectBytes, len(l.Value))
		}
	}
	return w
}

// Setup returns the most work the checks of any number of URLs cost
// together besides each one's Check: building the automaton's program and
// the scanner (their positions), the cold tier's index and the usage
// lines; math.MaxInt64 when the automaton may build states (a budget over
// ScannerBudget).
func (w Work) Setup() int64 {
	if !w.conditional {
		return 0
	}
	c := w.cost
	if c.Budget > ScannerBudget {
		return math.MaxInt64
	}
	positions := satMul(int64(c.Positions), positionWork)
	index := satMul(int64(c.Entries), positionWork*int64(bits.Len(uint(c.Entries))+1))
	usage := satSum(satMul(int64(w.usageRules), usageLineWork), satMul(int64(w.usageBytes), matchByteWork),
		satMul(int64(w.extras), extraWork))
	return satSum(positions, index, usage)
}

// ColdChecks returns the most work k checks of URLs of at most n bytes
// each cost besides their Check: the first compile.HotAfter checks of an
// agent's rules may be cold, each comparing at most what the engine's
// bound on a cold check allows; none is once the agent is compiled
// (Agent.Compile) before Work is read.
func (w Work) ColdChecks(k, n int) int64 {
	if !w.conditional || w.compiled {
		return 0
	}
	k = min(max(k, 0), compile.HotAfter)
	return satMul(satMul(int64(k), w.cost.ColdWork(n)), coldByteWork)
}

// Check returns the most work one check of a URL of n bytes costs past
// Setup and ColdChecks: Allowed, Decide and the check within Usage each
// cost it.
func (w Work) Check(n int) int64 {
	if !w.conditional {
		return 1
	}
	c := w.cost
	p := c.PathBytes(n)
	// A byte tests the runs of pieces that end there and narrows the
	// prefixes being read by a binary search over the patterns.
	runs := int64(c.PieceRuns()) + int64(bits.Len(uint(c.Patterns)))
	perByte := scanByteWork + scanRunWork*runs + int64(c.ScanLongest())/64 + walkWork
	// A check ends clearing its pieces' bitmap, a word for 64 of them, and
	// Decide finds the winning rule's group among the agent's groups.
	clear := satMul(int64(c.Pieces)/64+1, scanRunWork)
	groups := satMul(int64(w.groups), walkWork)
	begins := satMul(c.ChainPatterns, scanBeginWork)
	return satSum(satMul(p, perByte), begins, satMul(c.ScanSteps(n), scanStepWork), clear, groups)
}

// Usage returns the most work Agent.Usage adds to the check of a URL of n
// bytes: every usage line of the agent's groups tried against its path,
// those with a star read in full.
func (w Work) Usage(n int) int64 {
	if w.usageRules == 0 {
		return 0
	}
	p := int64(max(n, 0))*3 + 1 // escaped
	tries := satMul(int64(w.usageRules), matchWork)
	stars := satMul(satSum(satMul(int64(w.usageStars), p), int64(w.usageStarBytes)), matchByteWork)
	return satSum(tries, stars)
}

// Explain returns the most work Agent.Explain adds to the check of a URL
// of n bytes: every rule of the agent's groups matched against its path,
// and the user-agent lines that chose them described.
func (w Work) Explain(n int) int64 {
	if !w.conditional {
		return satMul(int64(w.selectLines+w.groups), selectionWork)
	}
	c := w.cost
	p := c.PathBytes(n)
	tries := satSum(satMul(int64(c.Rules), explainRuleWork), satMul(int64(c.Pieces), pieceWork))
	read := satMul(satSum(satMul(int64(c.Rules), p), int64(c.RuleBytes)), matchByteWork)
	selection := satSum(satMul(int64(w.selectLines)+int64(w.groups), selectionWork), satMul(int64(w.selectBytes), matchByteWork))
	return satSum(tries, read, selection)
}

// satMul is a*b for a, b ≥ 0, saturated at math.MaxInt64.
func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if hi, lo := bits.Mul64(uint64(a), uint64(b)); hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return a * b
}

// satSum is the sum of non-negative terms, saturated at math.MaxInt64.
func satSum(terms ...int64) int64 {
	var s int64
	for _, t := range terms {
		if s > math.MaxInt64-t {
			return math.MaxInt64
		}
		s += t
	}
	return s
}

// satAddInt is a+b for a, b ≥ 0, saturated at math.MaxInt.
func satAddInt(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
