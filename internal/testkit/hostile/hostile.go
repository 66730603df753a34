// Package hostile builds the robots.txt files that cost a matcher the most
// per check once its lazy DFA is past its memory budget, each filled to
// the size limit (compile.DefaultMaxBytes, robots.MaxBytes), with the URL
// paths that hurt it. Benchmarks time checks against them; tests pin their
// size and the number of rules they hold.
//
// Every file of Files is one group for every agent ("User-agent: *") of
// disallow rules; ClassifyFiles are those that cost the most to classify
// (classify.go). Every file is deterministic: the same call builds the
// same bytes.
package hostile

import (
	"math/rand/v2"
	"strings"

	"github.com/fastrobots/robots/compile"
)

// Limit is the size every file is built to: the bytes a parser reads.
const Limit = compile.DefaultMaxBytes

// header opens the one group.
const header = "User-agent: *\n"

// File is a hostile robots.txt and the paths that hurt it.
type File struct {
	Name  string
	Body  []byte
	Rules int // the rules of the group
	// Path returns a path of n bytes (n ≥ 1) that starts with '/': with
	// seed 0, the worst input this file knows of; with another seed, a
	// random path of the same kind, to spend a lazy DFA's budget on states
	// the worst path does not reach.
	Path func(n int, seed uint64) string
}

// Files returns every hostile file, in a fixed order.
func Files() []File {
	return []File{
		Alternating(), Distinct(), NeverEnd(), Nested(), NestedDollar(), NestedBusy(),
		RandomStars(), Dollar(), LongPrefix(),
	}
}

// fill repeats rule lines made by line(i), i = 0, 1, …, while they fit in
// Limit, and returns the body and the number of rules.
func fill(line func(i int) string) ([]byte, int) { return fillAfter(header, line) }

// fillAfter is fill with head first in place of the one '*' group's line;
// line may write groups of its own.
func fillAfter(head string, line func(i int) string) ([]byte, int) {
	var b strings.Builder
	b.WriteString(head)
	n := 0
	for ; ; n++ {
		l := line(n)
		if l == "" || b.Len()+len(l) > Limit {
			break
		}
		b.WriteString(l)
	}
	return []byte(b.String()), n
}

// disallow is a rule line.
func disallow(pattern string) string { return "Disallow: " + pattern + "\n" }

// paths returns a File.Path: worst(n) for seed 0, otherwise random bytes
// of alphabet.
func paths(worst func(n int) string, alphabet string) func(n int, seed uint64) string {
	return func(n int, seed uint64) string {
		if seed == 0 {
			return worst(n)
		}
		return randomPath(alphabet, seed)(n)
	}
}

// repeatPath returns paths of n bytes: '/' and then unit repeated.
func repeatPath(unit string) func(n int) string {
	return func(n int) string {
		return "/" + strings.Repeat(unit, n/len(unit)+1)[:n-1]
	}
}

// randomPath returns paths of n bytes: '/' and then bytes drawn from
// alphabet with a fixed seed.
func randomPath(alphabet string, seed uint64) func(n int) string {
	return func(n int) string {
		r := rand.New(rand.NewPCG(seed, 1))
		b := make([]byte, n)
		b[0] = '/'
		for i := 1; i < n; i++ {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
}

// random returns a File.Path whose every seed draws random bytes of
// alphabet (seed 0 included, with a seed of its own).
func random(alphabet string, seed uint64) func(n int, seed uint64) string {
	return paths(randomPath(alphabet, seed), alphabet)
}

// Alternating is 2,392 rules "/*a*b*b*a…*|" of 100 one-byte pieces each,
// drawn at random from {a, b}, against paths "/abab…": every piece of every
// rule is found within 200 bytes, and the final '|' never is, so no rule
// ever decides. The rules progress apart, so the lazy DFA meets a new set
// of positions at almost every byte.
func Alternating() File {
	r := rand.New(rand.NewPCG(1, 1))
	body, n := fill(func(int) string { return disallow(neverEnding(r, 100, 1, "ab")) })
	return File{Name: "alternating", Body: body, Rules: n, Path: paths(repeatPath("ab"), "ab")}
}

// neverEnding returns the pattern "/" + n pieces "*xy…", each a random
// word of k bytes over alphabet, + "*|": a pattern whose pieces a path over
// alphabet keeps finding and whose end, '|', it never does.
func neverEnding(r *rand.Rand, n, k int, alphabet string) string {
	words := 1
	for range k {
		words *= len(alphabet)
	}
	var b strings.Builder
	b.WriteString("/")
	for range n {
		b.WriteString("*" + word(r.IntN(words), k, alphabet))
	}
	b.WriteString("*|")
	return b.String()
}

// word returns the i-th string of length k over alphabet, in counting
// order.
func word(i, k int, alphabet string) string {
	b := make([]byte, k)
	for j := k - 1; j >= 0; j-- {
		b[j] = alphabet[i%len(alphabet)]
		i /= len(alphabet)
	}
	return string(b)
}

const lowerDigits = "abcdefghijklmnopqrstuvwxyz0123456789"

// Distinct is 31,999 short rules "/*xyz", each with a piece of its own,
// against random paths over the pieces' alphabet: the pieces found decide
// one after another, the best one last or never.
func Distinct() File {
	body, n := fill(func(i int) string {
		if i >= len(lowerDigits)*len(lowerDigits)*len(lowerDigits) {
			return ""
		}
		return disallow("/*" + word(i, 3, lowerDigits))
	})
	return File{Name: "distinct", Body: body, Rules: n, Path: random(lowerDigits, 1000)}
}

// NeverEnd is 509 rules of 330 two-byte pieces over {a, b} and a final '|',
// against random paths over {a, b}: every piece is found, the end never is.
func NeverEnd() File {
	r := rand.New(rand.NewPCG(2, 2))
	body, n := fill(func(int) string { return disallow(neverEnding(r, 330, 2, "ab")) })
	return File{Name: "never-end", Body: body, Rules: n, Path: random("ab", 1000)}
}

// Nested is 996 rules "/*a…a*|" whose pieces are a, aa, aaa, …, against paths "/aaa…": at every byte each piece ends, nested in
// the next, and no rule decides.
func Nested() File {
	body, n := fill(func(i int) string { return disallow("/*" + strings.Repeat("a", i+1) + "*|") })
	return File{Name: "nested", Body: body, Rules: n, Path: paths(repeatPath("a"), "aaaaaaab")}
}

// NestedDollar is 997 rules "/*a…a$" (a, aa, aaa, …), against paths "/aaa…":
// every rule matches only at the end of the path, so no check ends early.
func NestedDollar() File {
	body, n := fill(func(i int) string { return disallow("/*" + strings.Repeat("a", i+1) + "$") })
	return File{Name: "nested-dollar", Body: body, Rules: n, Path: paths(repeatPath("a"), "aaaaaaab")}
}

// NestedBusy is 123 rules of about 4 KiB, the k-th repeating the piece
// "a"×k, against paths "/aaa…": at every byte of a 4 KiB path each rule has
// just taken its piece and waits for the next occurrence that does not
// overlap it, so the queues of nested pieces always hold a rule that may
// not take the occurrence ending there.
func NestedBusy() File {
	body, n := fill(func(i int) string {
		var b strings.Builder
		b.WriteString("/")
		for b.Len() < 4096 {
			b.WriteString("*" + strings.Repeat("a", i+1))
		}
		b.WriteString("*|")
		return disallow(b.String())
	})
	return File{Name: "nested-busy", Body: body, Rules: n, Path: paths(repeatPath("a"), "aaaaaaab")}
}

// printable is the bytes a pattern keeps as they are that are no operator
// or comment: printable ASCII but '*', '$', '#', '%' and '|' (kept for
// ends that never match).
const printable = "!\"&'()+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{}~"

// RandomStars is 31 rules of 8,000 pieces of one random printable byte each
// and a final '|' (each line near compile.MaxLineBytes), against random
// paths over the same bytes: the most byte classes and pattern positions
// the size limit allows.
func RandomStars() File {
	r := rand.New(rand.NewPCG(4, 4))
	body, n := fill(func(int) string {
		var b strings.Builder
		b.WriteString("/")
		for range 8000 {
			b.WriteByte('*')
			b.WriteByte(printable[r.IntN(len(printable))])
		}
		b.WriteString("*|")
		return disallow(b.String())
	})
	return File{Name: "random-stars", Body: body, Rules: n, Path: random(printable, 1000)}
}

// Dollar is 30,116 rules "/*xyz$" with pieces of their own, against random
// paths over the pieces' alphabet: every rule waits for the end.
func Dollar() File {
	body, n := fill(func(i int) string {
		if i >= len(lowerDigits)*len(lowerDigits)*len(lowerDigits) {
			return ""
		}
		return disallow("/*" + word(i, 3, lowerDigits) + "$")
	})
	return File{Name: "dollar", Body: body, Rules: n, Path: random(lowerDigits, 1000)}
}

// LongPrefix is 34 rules that share a prefix "/aaa…" of 15,000 bytes, then
// differ in a star, a piece and a final '|', against paths of that prefix
// and then random bytes: the prefix is read for every rule at once, then
// every piece is found and no end is.
func LongPrefix() File {
	prefix := "/" + strings.Repeat("a", 15000)
	body, n := fill(func(i int) string { return disallow(prefix + "*" + word(i, 2, lowerDigits) + "*|") })
	worst := func(n int) string {
		p := prefix + randomPath(lowerDigits, 1000)(max(1, n-len(prefix)+1))[1:]
		return p[:n]
	}
	return File{Name: "long-prefix", Body: body, Rules: n, Path: paths(worst, "a"+lowerDigits)}
}
