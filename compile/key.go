package compile

import (
	"encoding/binary"
	"unsafe"
)

// Kind is what a directive line does.
type Kind uint8

const (
	Unknown   Kind = iota // any key not listed below; kept, never matched
	UserAgent             // starts or extends a group
	Allow                 // a rule that allows matching paths
	Disallow              // a rule that disallows matching paths
	Sitemap               // a sitemap URL, outside any group
)

// keySpelling is one spelling of a field name and the kind it stands for.
// typo marks misspellings that Google accepts and RFC 9309 does not.
type keySpelling struct {
	name string
	kind Kind
	typo bool
}

// keySpellings is ordered as Google tests them: a key is the first entry it
// starts with, so "allowed" is an allow and "disallowed" a disallow.
var keySpellings = []keySpelling{
	{"user-agent", UserAgent, false},
	{"useragent", UserAgent, true},
	{"user agent", UserAgent, true},
	{"allow", Allow, false},
	{"disallow", Disallow, false},
	{"dissallow", Disallow, true},
	{"dissalow", Disallow, true},
	{"disalow", Disallow, true},
	{"diasllow", Disallow, true},
	{"disallaw", Disallow, true},
	{"sitemap", Sitemap, false},
	{"site-map", Sitemap, true},
}

// spellingsByLetter indexes keySpellings by their first letter: a key can
// only be a spelling that starts with its own first letter, folded. The
// spellings of one kind share a first letter and no two kinds do, so
// testing only those keeps Google's order.
var spellingsByLetter = func() (by [256][]keySpelling) {
	for _, s := range keySpellings {
		by[s.name[0]] = append(by[s.name[0]], s)
	}
	return by
}()

// ClassifyKey returns the kind of a directive's key. In Google mode a key
// is recognised by case-insensitive prefix, typos included; in RFC mode it
// must equal a field name of RFC 9309 (or "sitemap"), ignoring case.
// Spelling is the canonical spelling matched, "" for Unknown; typo reports
// that the key was a misspelling Google accepts.
func ClassifyKey(key string, mode Mode) (kind Kind, spelling string, typo bool) {
	return classifyKey(key, mode.Dialect().ExactKeys)
}

// classifyKey is ClassifyKey in a dialect whose keys are exact or not.
func classifyKey(key string, exact bool) (kind Kind, spelling string, typo bool) {
	if key == "" {
		return Unknown, "", false
	}
	for _, s := range spellingsByLetter[lowerASCII(key[0])] {
		if exact && (s.typo || len(key) != len(s.name)) {
			continue
		}
		if hasPrefixFold(key, s.name) {
			return s.kind, s.name, s.typo
		}
	}
	return Unknown, "", false
}

// kindOf is classifyKey's kind, found first among the canonical spellings
// a word at a time: nearly every key is one of them. The others, typos
// included, go through classifyKey.
func kindOf(key string, exact bool) Kind {
	if kind, ok := canonicalKind(key, exact); ok {
		return kind
	}
	kind, _, _ := classifyKey(key, exact)
	return kind
}

// canonicalKind recognises a key that starts with (Google mode) or is (RFC
// mode) one of the canonical spellings, ignoring case. It reads the key's
// bytes with 0x20 set: that lower-cases letters, and turns no other byte
// into a letter; only CR becomes '-', so the hyphen of user-agent is
// checked as it is.
func canonicalKind(key string, exact bool) (Kind, bool) {
	var kind Kind
	var n int
	switch key[0] | 0x20 {
	case 'd':
		kind, n = Disallow, 8
	case 'a':
		kind, n = Allow, 5
	case 'u':
		kind, n = UserAgent, 10
	case 's':
		kind, n = Sitemap, 7
	default:
		return Unknown, false
	}
	if len(key) < n || exact && len(key) != n {
		return Unknown, false
	}
	want := &canonicalWords[kind]
	if n >= 8 {
		if loadWord(key)|lowerBits != want[0] {
			return Unknown, false
		}
		if n == 10 && (key[8]|0x20 != 'n' || key[9]|0x20 != 't' || key[4] != '-') {
			return Unknown, false
		}
		return kind, true
	}
	var w [8]byte
	copy(w[:], key[:n])
	mask := uint64(1)<<(8*n) - 1
	return kind, (binary.LittleEndian.Uint64(w[:])|lowerBits)&mask == want[0]&mask
}

// lowerBits lower-cases the ASCII letters of a word.
const lowerBits = 0x2020202020202020

// loadWord returns the first eight bytes of s, which must have as many,
// as a little-endian word.
func loadWord(s string) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
}

// canonicalWords holds each kind's canonical spelling, its first eight
// bytes as a little-endian word with lowerBits set.
var canonicalWords = func() (w [Sitemap + 1][1]uint64) {
	for kind, name := range map[Kind]string{Disallow: "disallow", Allow: "allow", UserAgent: "user-agent", Sitemap: "sitemap"} {
		w[kind][0] = wordOf(name) | lowerBits
	}
	return w
}()

// hasPrefixFold reports whether s starts with the lower-case ASCII prefix,
// ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}
