package automaton

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// warmSet returns a Set of patterns whose states for paths all have rows.
func warmSet(t *testing.T, patterns []Pattern, paths ...string) *Set {
	t.Helper()
	set := NewSet(patterns, Options{})
	for range rowAfter + 1 {
		for _, p := range paths {
			set.Decide(p)
		}
	}
	return set
}

// TestWalkFromStopsWhereItShould checks walkFrom's three stops: the end of
// its input, a transition that leaves the rows, and, with toFragment, a
// '#', which without it is read as any byte.
func TestWalkFromStopsWhereItShould(t *testing.T) {
	set := warmSet(t, []Pattern{{Expr: "/a#b", Priority: 4}, {Expr: "/a", Allow: true, Priority: 2}}, "/a#b", "/a#c", "/a", "/x")
	d := set.dfa
	tab := d.table.Load()

	st, n, next := tab.walkFrom(d.start, "/a", false)
	assert.Equal(t, 2, n, "the whole input is read")
	assert.Zero(t, next)
	assert.GreaterOrEqual(t, st, int32(0))

	st2, n, next := tab.walkFrom(d.start, "/a#b", true)
	assert.Equal(t, 2, n, "with toFragment the walk stops at the '#'")
	assert.Zero(t, next)
	assert.Equal(t, st, st2, "in the state the bytes before the '#' lead to")

	_, n, next = tab.walkFrom(d.start, "/a#b", false)
	assert.True(t, n == 4 || next < 0, "without toFragment the '#' is read: stopped at %d, next %d", n, next)
	assert.False(t, set.Allowed("/a#b", ""), "the '#' is a byte of the path")
	assert.True(t, set.AllowedBeforeFragment("/a#b"), "the fragment is not")
}

// TestCorruptTablePanics checks that every read of the transition table is
// bounds-checked: an entry made to name a row just past the table, as a
// bug in building rows could, panics in each of the walks instead of
// reading past the table.
func TestCorruptTablePanics(t *testing.T) {
	for name, check := range map[string]func(*Set){
		"Allowed":               func(s *Set) { s.Allowed("/ab", "") },
		"AllowedBeforeFragment": func(s *Set) { s.AllowedBeforeFragment("/ab#x") },
		"Decide":                func(s *Set) { s.Decide("/ab") },
		"AllowedLanes":          func(s *Set) { s.AllowedLanes(&[Lanes]string{"/ab", "/ab", "/ab", "/ab"}) },
	} {
		set := warmSet(t, []Pattern{{Expr: "/a*b", Priority: 4}}, "/ab", "/b")
		d := set.dfa
		tab := d.table.Load()
		require.Positive(t, len(tab.trans))
		tab.trans[d.start+int32(d.prog.class['/'])] = int32(len(tab.trans))
		assert.Panics(t, func() { check(set) }, name)
	}
}

// TestWalkFromReadsHashThroughTheTable checks that a walk without
// toFragment reads a '#' as any other byte, whatever the position of its
// class, on paths of many '#'.
func TestWalkFromReadsHashThroughTheTable(t *testing.T) {
	patterns := []Pattern{{Expr: "/*##$", Priority: 5}, {Expr: "/#*x", Allow: true, Priority: 4}, {Expr: "/", Priority: 1}}
	paths := []string{"/##", "/#x", "/a##", "/#a#x#", strings.Repeat("#", 40), "/" + strings.Repeat("#", 40) + "x"}
	set := warmSet(t, patterns, paths...)
	simple := reference(patterns)
	for _, p := range paths {
		want, ok := simple.Decide(p)
		assert.Equal(t, !ok || want.Allow, set.Allowed(p, ""), p)
		assert.Equal(t, !ok || want.Allow, set.Allowed(p[:len(p)/2], p[len(p)/2:]), p)
	}
}

// TestWalkLeavesTheRowsOnEveryArch: a walk that leaves the rows on a
// final or settled entry (negative) stops there whatever the width of
// uint. Held as a 32-bit offset, the entry plus a byte class wraps to a
// small offset: built for GOARCH=386, "/private/x" walked on into rows of
// other states (allowed) and "/private" read index -4 (a panic).
func TestWalkLeavesTheRowsOnEveryArch(t *testing.T) {
	ps := []Pattern{{Expr: "/private", Priority: 8}}
	paths := []string{"/private", "/private/x", "/privatex", "/priv", "/", "/public", "/private#x", "/x#/private"}
	set := warmSet(t, ps, paths...)
	for _, p := range paths {
		for _, before := range []bool{false, true} {
			want := referenceAllows(ps, p)
			var got bool
			if before {
				want = referenceAllows(ps, cutFragment(p))
				got = set.AllowedBeforeFragment(p)
			} else {
				got = set.Allowed(p, "")
			}
			assert.Equal(t, want, got, "%q (before the fragment: %v)", p, before)
		}
		lanes := [Lanes]string{p, "/private/x", "/public", p}
		got := set.AllowedLanes(&lanes)
		for k, q := range lanes {
			assert.Equal(t, referenceAllows(ps, cutFragment(q)), got[k], "lane %d, %q", k, q)
		}
	}
}
