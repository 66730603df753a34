package compile

import (
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/fastrobots/robots/automaton"
)

// CheckCost is what bounds the work of a rule set's checks, read from its
// patterns without running any (package robots turns it into work units:
// Agent.Work). Each tier of check.go has its term:
//
//   - cold: a cold check compares at most ColdWork(n) bytes, and only the
//     first HotAfter checks may be cold;
//   - the automaton: building it reads every pattern once (Positions), its
//     lazy DFA builds states within Budget bytes, each state's cost counted
//     in them (automaton.DefaultBudget), and a check walks one state a byte;
//   - the segment scanner, once the budget is spent: an n-byte path costs
//     a few steps a byte (PieceRuns, ScanLongest), begins at most
//     ChainPatterns patterns, and takes at most one step per piece of each
//     it begins, at most ScanSteps(n) in all.
//
// Every count saturates rather than wraps, on any architecture.
type CheckCost struct {
	// Rules and RuleBytes are the selection's rules and the bytes of their
	// patterns, as coldWork counts them.
	Rules, RuleBytes int
	// Stars and StarBytes are the patterns with a star and their bytes,
	// which a cold check on the index matches one by one (indexWork);
	// Entries is the index's entries.
	Stars, StarBytes, Entries int
	// Patterns is the patterns the automaton is built from (index pages'
	// directories included), Positions the positions of its program: one
	// a pattern byte and one a pattern.
	Patterns, Positions int
	// Budget is the memory budget of the automaton's states, in bytes.
	Budget int
	// Pieces is the number of pieces (runs between stars) of all the
	// patterns, PieceBytes their bytes.
	Pieces, PieceBytes int
	// ChainPatterns and ChainPieces bound the patterns one path begins and
	// their pieces: a pattern begins once the path has read its prefix
	// (the bytes before its first star), and then takes at most a step per
	// piece. The patterns whose prefixes prefix one another form a chain;
	// these are the largest chain's patterns, and the most pieces of one.
	ChainPatterns, ChainPieces int64
	// pieces holds each pattern's pieces, ascending, and pieceSums their
	// running sums, for ScanSteps.
	pieces    []int32
	pieceSums []int64
	// Escapes is set when a path is normalised before it is matched (RFC
	// mode): its bytes may be escaped to three each.
	Escapes bool
}

// CheckCost returns the rule set's CheckCost. It costs a pass over the
// patterns and a sort of their prefixes: about what a parse of them costs.
func (rs *RuleSet) CheckCost() CheckCost {
	c := CheckCost{
		Rules: int(rs.rules), RuleBytes: int(rs.bytes),
		Budget:  rs.options().Limit(),
		Escapes: rs.normalize,
	}
	patterns := rs.patterns()
	type begin struct {
		prefix string
		pieces int64
	}
	begins := make([]begin, 0, len(patterns))
	c.pieces = make([]int32, 0, len(patterns))
	for _, p := range patterns {
		if p.Expr == "" {
			continue
		}
		c.Patterns++
		c.Positions = satAdd(c.Positions, len(p.Expr)+1)
		g := automaton.ReadGlob(p.Expr)
		if g.Starred() {
			c.Stars++
			c.StarBytes = satAdd(c.StarBytes, len(p.Expr))
		}
		pieces := 0
		for piece := range g.Pieces() {
			pieces++
			c.PieceBytes = satAdd(c.PieceBytes, len(piece))
		}
		c.Pieces = satAdd(c.Pieces, pieces)
		begins = append(begins, begin{g.Key(), int64(pieces)})
		c.pieces = append(c.pieces, int32(min(pieces, math.MaxInt32)))
	}
	c.Entries = c.Patterns
	slices.Sort(c.pieces)
	c.pieceSums = make([]int64, len(c.pieces)+1)
	for i, s := range c.pieces {
		c.pieceSums[i+1] = c.pieceSums[i] + int64(s)
	}
	// Sorted, a prefix comes before the prefixes it prefixes, and the
	// patterns of one chain are a stack.
	slices.SortFunc(begins, func(a, b begin) int { return strings.Compare(a.prefix, b.prefix) })
	type link struct {
		prefix           string
		patterns, pieces int64 // of the chain up to it
	}
	var stack []link
	for _, b := range begins {
		for len(stack) > 0 && !strings.HasPrefix(b.prefix, stack[len(stack)-1].prefix) {
			stack = stack[:len(stack)-1]
		}
		l := link{b.prefix, 1, b.pieces}
		if len(stack) > 0 {
			l.patterns += stack[len(stack)-1].patterns
			l.pieces += stack[len(stack)-1].pieces
		}
		stack = append(stack, l)
		c.ChainPatterns = max(c.ChainPatterns, l.patterns)
		c.ChainPieces = max(c.ChainPieces, l.pieces)
	}
	return c
}

// PathBytes returns the most bytes the path of a URL of n bytes is
// matched as: the URL's bytes and a '/' put in front, each escaped to
// three where the dialect normalises paths.
func (c CheckCost) PathBytes(n int) int64 {
	p := min(int64(max(n, 0)), math.MaxInt64/4) + 1
	if c.Escapes {
		p *= 3
	}
	return p
}

// ColdWork returns the most bytes a cold check of a URL of n bytes
// compares: coldWork for the rules tried one by one, or indexWork for the
// index, whichever is more, when it is within coldWorkMax; 0 otherwise,
// since a check past coldWorkMax is not cold.
func (c CheckCost) ColdWork(n int) int64 {
	p := int(min(c.PathBytes(n), math.MaxInt32))
	w := max(coldWork(p, c.Rules, c.RuleBytes), indexWork(p, c.Stars, c.StarBytes, c.Entries))
	if w > coldWorkMax {
		// Each of the two is taken only within coldWorkMax.
		w = 0
		if cw := coldWork(p, c.Rules, c.RuleBytes); cw <= coldWorkMax {
			w = cw
		}
		if iw := indexWork(p, c.Stars, c.StarBytes, c.Entries); iw <= coldWorkMax {
			w = max(w, iw)
		}
	}
	return w
}

// ScanSteps returns the most pieces the segment scanner's check of a URL
// of n bytes finds besides beginning its patterns: each pattern it begins
// takes a step per piece it finds, and finds a piece at most once a byte;
// the patterns it begins are those of one chain.
func (c CheckCost) ScanSteps(n int) int64 {
	p := c.PathBytes(n)
	// Patterns of fewer than p pieces take all theirs, the others p.
	i, _ := slices.BinarySearch(c.pieces, int32(min(p, math.MaxInt32)))
	if rest := int64(len(c.pieces) - i); rest > 0 && p > (math.MaxInt64-c.pieceSums[i])/rest {
		return c.ChainPieces // the patterns' own pieces are the fewer
	}
	all := c.pieceSums[i] + int64(len(c.pieces)-i)*p
	return min(all, c.ChainPieces)
}

// PieceRuns returns log2 of the number of pieces, plus one: a byte the
// scanner reads tests at most that many runs of pieces (automaton's
// trie.go), and narrows the patterns' prefixes by a binary search as long.
func (c CheckCost) PieceRuns() int { return bits.Len(uint(c.Pieces)) + 1 }

// ScanLongest bounds the most pieces that end at one byte: they are
// suffixes of one another, of lengths 1 to L at most, so L(L+1)/2 is at
// most the pieces' bytes.
func (c CheckCost) ScanLongest() int {
	return int(math.Sqrt(2*float64(c.PieceBytes))) + 1
}

// satAdd is a+b, saturated at math.MaxInt.
func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
