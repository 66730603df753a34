package fuzzgen

import (
	"math/rand/v2"
	"strings"
)

// Mutant is a generated file taken out of the grammar in one known way, with
// the directives each reading must find in it.
type Mutant struct {
	Name   string
	Body   []byte
	Google []Token // what Google's lenient reading finds
	RFC    []Token // what the strict RFC 9309 reading finds
	Lines  int     // the number of lines, the same in both readings
}

// Mutation makes a Mutant of a file, or returns false when the file has no
// line it applies to.
type Mutation func(r *rand.Rand, f *File) (*Mutant, bool)

// Mutations lists every mutation with known expectations, by name.
var Mutations = map[string]Mutation{
	"typo":           Typo,
	"key-suffix":     KeySuffix,
	"missing-colon":  MissingColon,
	"three-words":    ThreeWords,
	"unicode-hyphen": UnicodeHyphen,
	"leading-bom":    LeadingBOM,
	"double-bom":     DoubleBOM,
	"nul":            NUL,
	"cr-only":        func(_ *rand.Rand, f *File) (*Mutant, bool) { return LineBreaks(f, "\r"), true },
	"lf-only":        func(_ *rand.Rand, f *File) (*Mutant, bool) { return LineBreaks(f, "\n"), true },
	"crlf-only":      func(_ *rand.Rand, f *File) (*Mutant, bool) { return LineBreaks(f, "\r\n"), true },
}

// mutant starts a Mutant that reads as f does.
func mutant(name string, f *File) *Mutant {
	return &Mutant{Name: name, Google: f.Tokens(), RFC: f.Tokens(), Lines: f.LineCount()}
}

// pick returns a random line whose field is one of fields and that satisfies
// ok (nil: any), or false.
func pick(r *rand.Rand, f *File, ok func(Line) bool, fields ...Field) (Line, bool) {
	var cand []Line
	for _, l := range f.Lines {
		for _, fl := range fields {
			if l.Field == fl && (ok == nil || ok(l)) {
				cand = append(cand, l)
				break
			}
		}
	}
	if len(cand) == 0 {
		return Line{}, false
	}
	return cand[r.IntN(len(cand))], true
}

// withLine returns f's body with line num's text replaced.
func withLine(f *File, num int, text string) []byte {
	var b []byte
	for _, l := range f.Lines {
		if l.Num == num {
			b = append(b, text...)
		} else {
			b = append(b, l.Text...)
		}
		b = append(b, l.NL...)
	}
	return b
}

// set replaces the token of line num in toks (deleting it when t is nil).
func set(toks []Token, num int, t *Token) []Token {
	out := toks[:0:0]
	for _, x := range toks {
		if x.Line != num {
			out = append(out, x)
		} else if t != nil {
			out = append(out, *t)
		}
	}
	return out
}

var typos = map[Field][]string{
	UserAgent: {"useragent", "user agent"},
	Disallow:  {"dissallow", "dissalow", "disalow", "diasllow", "disallaw"},
	Sitemap:   {"site-map"},
}

// Typo writes a field name as one of the misspellings Google accepts:
// Google's reading keeps the field, RFC 9309's makes the line unknown.
func Typo(r *rand.Rand, f *File) (*Mutant, bool) {
	l, ok := pick(r, f, nil, UserAgent, Disallow, Sitemap)
	if !ok {
		return nil, false
	}
	spellings := typos[l.Field]
	key := caseOf(r, spellings[r.IntN(len(spellings))])
	m := mutant("typo", f)
	m.Body = withLine(f, l.Num, l.lead+key+l.sep+l.Value+l.tail)
	m.Google = set(m.Google, l.Num, &Token{l.Num, l.Field, key, l.Value})
	m.RFC = set(m.RFC, l.Num, &Token{l.Num, Unknown, key, l.Value})
	return m, true
}

// KeySuffix lengthens a field name ("Disallowed", "User-agents",
// "Sitemaps"): Google reads keys by prefix, RFC 9309 by equality.
func KeySuffix(r *rand.Rand, f *File) (*Mutant, bool) {
	l, ok := pick(r, f, nil, UserAgent, Allow, Disallow, Sitemap)
	if !ok {
		return nil, false
	}
	key := l.Key + [...]string{"s", "ed", "-x", "_2", "ance", "\u00e9"}[r.IntN(6)]
	m := mutant("key-suffix", f)
	m.Body = withLine(f, l.Num, l.lead+key+l.sep+l.Value+l.tail)
	m.Google = set(m.Google, l.Num, &Token{l.Num, l.Field, key, l.Value})
	m.RFC = set(m.RFC, l.Num, &Token{l.Num, Unknown, key, l.Value})
	return m, true
}

// twoWords reports whether a directive can lose its colon and stay two
// words: a value without white space and without a colon of its own.
func twoWords(l Line) bool {
	return l.Value != "" && !strings.ContainsAny(l.Value, " \t:")
}

// MissingColon drops the colon of a directive, leaving "key value": Google
// reads it, RFC 9309 skips the line.
func MissingColon(r *rand.Rand, f *File) (*Mutant, bool) {
	l, ok := pick(r, f, twoWords, UserAgent, Allow, Disallow, Sitemap, Unknown)
	if !ok {
		return nil, false
	}
	m := mutant("missing-colon", f)
	m.Body = withLine(f, l.Num, l.lead+l.Key+wsRun(r)+l.Value+l.tail)
	m.RFC = set(m.RFC, l.Num, nil)
	return m, true
}

// ThreeWords drops the colon of a directive and adds a third word: neither
// reading takes the line.
func ThreeWords(r *rand.Rand, f *File) (*Mutant, bool) {
	l, ok := pick(r, f, twoWords, UserAgent, Allow, Disallow, Sitemap, Unknown)
	if !ok {
		return nil, false
	}
	third := [...]string{"/x", "extra", "*", "\u00e9t\u00e9", "$"}[r.IntN(5)]
	m := mutant("three-words", f)
	m.Body = withLine(f, l.Num, l.lead+l.Key+wsRun(r)+l.Value+wsRun(r)+third+l.tail)
	m.Google = set(m.Google, l.Num, nil)
	m.RFC = set(m.RFC, l.Num, nil)
	return m, true
}

// UnicodeHyphen writes "user-agent" with U+2010 HYPHEN for its '-', as word
// processors do: no reading knows the key.
func UnicodeHyphen(r *rand.Rand, f *File) (*Mutant, bool) {
	l, ok := pick(r, f, nil, UserAgent)
	if !ok {
		return nil, false
	}
	key := strings.Replace(l.Key, "-", "\u2010", 1)
	m := mutant("unicode-hyphen", f)
	m.Body = withLine(f, l.Num, l.lead+key+l.sep+l.Value+l.tail)
	m.Google = set(m.Google, l.Num, &Token{l.Num, Unknown, key, l.Value})
	m.RFC = set(m.RFC, l.Num, &Token{l.Num, Unknown, key, l.Value})
	return m, true
}

// LeadingBOM puts a UTF-8 byte order mark, or a prefix of one, before the
// file: both readings skip it.
func LeadingBOM(r *rand.Rand, f *File) (*Mutant, bool) {
	m := mutant("leading-bom", f)
	m.Body = append([]byte("\xEF\xBB\xBF"[:1+r.IntN(3)]), f.Body...)
	return m, true
}

// DoubleBOM puts two byte order marks before the file: the first is
// skipped, the second belongs to the first line, whose key it spoils.
func DoubleBOM(_ *rand.Rand, f *File) (*Mutant, bool) {
	const bom = "\xEF\xBB\xBF"
	m := mutant("double-bom", f)
	m.Body = append([]byte(bom+bom), f.Body...)
	if len(f.Lines) > 0 {
		if l := f.Lines[0]; l.Field != Blank {
			key := bom + l.lead + l.Key
			m.Google = set(m.Google, 1, &Token{1, Unknown, key, l.Value})
			m.RFC = set(m.RFC, 1, &Token{1, Unknown, key, l.Value})
		}
	}
	return m, true
}

// NUL puts a NUL byte into a directive, which ends the line's content: at
// the start, the line is lost; after the value, nothing changes.
func NUL(r *rand.Rand, f *File) (*Mutant, bool) {
	l, ok := pick(r, f, nil, UserAgent, Allow, Disallow, Sitemap, Unknown)
	if !ok {
		return nil, false
	}
	junk := "\x00" + [...]string{"", "Disallow: /", "x:y", "\x00\x00", "#"}[r.IntN(5)]
	m := mutant("nul", f)
	if r.IntN(2) == 0 {
		m.Body = withLine(f, l.Num, junk+l.Text)
		m.Google = set(m.Google, l.Num, nil)
		m.RFC = set(m.RFC, l.Num, nil)
	} else {
		m.Body = withLine(f, l.Num, l.lead+l.Key+l.sep+l.Value+junk+l.tail)
	}
	return m, true
}

// LineBreaks ends every line with nl: the lines are the same lines.
func LineBreaks(f *File, nl string) *Mutant {
	m := mutant("line-breaks", f)
	for _, l := range f.Lines {
		m.Body = append(m.Body, l.Text...)
		m.Body = append(m.Body, nl...)
	}
	if m.Body == nil {
		m.Body = []byte{}
	}
	return m
}

// Noise makes random byte-level edits to body: flips, insertions of bytes
// that mean something to a parser (NUL, CR, LF, '#', ':', space, BOM bytes,
// '*', '$', '%'), deletions and duplications. It has no expectations of its
// own; ReferenceScan is the oracle for the result.
func Noise(r *rand.Rand, body []byte) []byte {
	b := append([]byte(nil), body...)
	for n := 1 + r.IntN(4); n > 0; n-- {
		i := 0
		if len(b) > 0 {
			i = r.IntN(len(b) + 1)
		}
		switch k := r.IntN(6); {
		case k == 0 && i < len(b):
			b[i] ^= byte(1 << r.IntN(8))
		case k == 1 && i < len(b):
			b = append(b[:i], b[i+1:]...)
		case k == 2 && i < len(b):
			j := min(len(b), i+1+r.IntN(16))
			b = append(b[:j], append(append([]byte(nil), b[i:j]...), b[j:]...)...)
		default:
			ins := noiseBytes[r.IntN(len(noiseBytes))]
			b = append(b[:i], append([]byte(ins), b[i:]...)...)
		}
	}
	return b
}

var noiseBytes = []string{
	"\x00", "\r", "\n", "\r\n", "#", ":", " ", "\t", "\v", "\xEF", "\xEF\xBB\xBF",
	"*", "$", "%", "%a", "\xFF", "\xC3", "\u2010", "/", "User-agent", "Disallow",
}

func wsRun(r *rand.Rand) string {
	return [...]string{" ", "\t", "  ", " \t "}[r.IntN(4)]
}

func caseOf(r *rand.Rand, name string) string {
	b := []byte(name)
	for i, c := range b {
		if 'a' <= c && c <= 'z' && r.IntN(3) == 0 {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
