package compile

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/automaton"
)

// ChainPatterns and ScanSteps bound what the segment scanner's check of a
// path does: every pattern whose prefix the path starts with begins, and
// takes a step per piece it finds, at most one a byte. On random files of
// patterns over a small alphabet, for random paths, the patterns begun and
// their steps counted one by one are within the bounds, and ScanSteps
// within ChainPieces whatever the path.
func TestScanStepsBoundTheScannersSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 3))
	word := func(n int, alphabet string) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 200 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range 1 + r.IntN(60) {
			p := "/" + word(r.IntN(4), "ab")
			for range r.IntN(4) {
				p += "*" + word(r.IntN(3), "ab")
			}
			if r.IntN(3) == 0 {
				p += "$"
			}
			body.WriteString([]string{"Allow: ", "Disallow: "}[r.IntN(2)] + p + "\n")
		}
		f := Parse([]byte(body.String()), Options{})
		rs := f.Compile(f.Resolve(), automaton.Options{})
		c := rs.CheckCost()
		for range 20 {
			path := "/" + word(r.IntN(12), "ab")
			n := len(path) - 1 // the URL's bytes: PathBytes adds the '/'
			require.Equal(t, int64(len(path)), c.PathBytes(n))
			var begun, steps int64
			for _, p := range rs.patterns() {
				g := automaton.ReadGlob(p.Expr)
				if p.Expr != "" && strings.HasPrefix(path, g.Key()) {
					begun++
					steps += int64(min(len(slices.Collect(g.Pieces())), len(path)))
				}
			}
			assert.LessOrEqual(t, begun, c.ChainPatterns, "%q on\n%s", path, body.String())
			assert.LessOrEqual(t, steps, c.ScanSteps(n), "%q on\n%s", path, body.String())
			assert.LessOrEqual(t, c.ScanSteps(n), c.ChainPieces)
		}
	}
}

// ChainPatterns and ChainPieces are those of the largest chain of
// prefixes: patterns whose prefixes do not prefix one another are never
// begun by one path.
func TestChainsAreTheLargest(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /a*x*y\nDisallow: /ab*z\nDisallow: /b*x*y*z\nAllow: /ab\nDisallow: /*q\n"), Options{})
	c := f.Compile(f.Resolve(), automaton.Options{}).CheckCost()
	// "/", "/a", "/ab", "/ab": 1 + 2 + 1 + 0 pieces; "/" and "/b": 1 + 3.
	assert.Equal(t, int64(4), c.ChainPatterns)
	assert.Equal(t, int64(4), c.ChainPieces)
	assert.Equal(t, 5, c.Patterns)
	assert.Equal(t, 4, c.Stars)
	assert.Equal(t, 7, c.Pieces)
	assert.Equal(t, 7, c.PieceBytes)
	assert.Equal(t, int64(4), c.ScanSteps(100))
	// A path finds at most a piece a byte: "/" finds none, "/ab" two.
	f = Parse([]byte("User-agent: *\nDisallow: /*a*b*c*d\nDisallow: /*b*c*d*a\nAllow: /*c*d*a*b\n"), Options{})
	c = f.Compile(f.Resolve(), automaton.Options{}).CheckCost()
	assert.Equal(t, int64(3), c.ChainPatterns)
	assert.Equal(t, int64(12), c.ChainPieces)
	assert.Equal(t, []int64{3, 6, 9, 12, 12}, []int64{c.ScanSteps(0), c.ScanSteps(1), c.ScanSteps(2), c.ScanSteps(3), c.ScanSteps(40)})
}

// A cold check is counted by the engine's own bounds, and only when it is
// within coldWorkMax: past it the check is not cold.
func TestColdWorkIsTheEnginesBound(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /a*b\nAllow: /a/\n"), Options{})
	c := f.Compile(f.Resolve(), automaton.Options{}).CheckCost()
	n := 40
	p := int(c.PathBytes(n))
	assert.Equal(t, max(coldWork(p, 2, 6), indexWork(p, 1, 4, 2)), c.ColdWork(n))
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := range 20_000 {
		body.WriteString("Disallow: /*x" + strings.Repeat("y", i%50) + "z\n")
	}
	f = Parse([]byte(body.String()), Options{})
	c = f.Compile(f.Resolve(), automaton.Options{}).CheckCost()
	assert.Zero(t, c.ColdWork(200), "past coldWorkMax, no check is cold")
	assert.LessOrEqual(t, c.ColdWork(1), int64(coldWorkMax))
}

// The counts saturate rather than wrap: a path of the largest length,
// and RFC mode's escapes, give the most, not a negative number.
func TestCheckCostSaturates(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /a*b*c\n"), Options{Mode: RFC})
	c := f.Compile(f.Resolve(), automaton.Options{}).CheckCost()
	assert.True(t, c.Escapes)
	assert.Equal(t, int64(30), c.PathBytes(9))
	for _, n := range []int{math.MaxInt32, math.MaxInt} {
		assert.Positive(t, c.PathBytes(n))
		assert.Positive(t, c.ScanSteps(n))
		assert.GreaterOrEqual(t, c.ColdWork(n), int64(0))
	}
	assert.Equal(t, math.MaxInt, satAdd(math.MaxInt-1, 5))
}
