package compile

import "encoding/binary"

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
	if key == "" {
		return Unknown, "", false
	}
	for _, s := range spellingsByLetter[lowerASCII(key[0])] {
		if mode == RFC && (s.typo || len(key) != len(s.name)) {
			continue
		}
		if hasPrefixFold(key, s.name) {
			return s.kind, s.name, s.typo
		}
	}
	return Unknown, "", false
}

// kindOf is ClassifyKey's kind, found first among the canonical spellings
// a word at a time: nearly every key is one of them. The others, typos
// included, go through ClassifyKey.
func kindOf(key string, mode Mode) Kind {
	if kind, ok := canonicalKind(key, mode); ok {
		return kind
	}
	kind, _, _ := ClassifyKey(key, mode)
	return kind
}

// canonicalKind recognises a key that starts with (Google mode) or is (RFC
// mode) one of the canonical spellings, ignoring case. It reads the key's
// bytes with 0x20 set: that lower-cases letters, and turns no other byte
// into a letter; only CR becomes '-', so the hyphen of user-agent is
// checked as it is.
func canonicalKind(key string, mode Mode) (Kind, bool) {
	var kind Kind
	var n int
	switch lowerASCII(key[0]) {
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
	if len(key) < n || mode == RFC && len(key) != n {
		return Unknown, false
	}
	var w [16]byte
	copy(w[:], key[:n])
	lo := binary.LittleEndian.Uint64(w[:8]) | 0x2020202020202020
	hi := binary.LittleEndian.Uint64(w[8:]) | 0x2020202020202020
	want := canonicalWords[kind]
	mask := uint64(1)<<(8*min(n, 8)) - 1
	if n == 8 {
		mask = ^uint64(0)
	}
	hiMask := uint64(1)<<(8*max(n-8, 0)) - 1
	if kind == UserAgent && key[4] != '-' {
		return Unknown, false
	}
	return kind, lo&mask == want[0]&mask && hi&hiMask == want[1]&hiMask
}

// canonicalWords holds each kind's canonical spelling as two little-endian
// words, padded with 0x20 bytes.
var canonicalWords = func() (w [Sitemap + 1][2]uint64) {
	for kind, name := range map[Kind]string{Disallow: "disallow", Allow: "allow", UserAgent: "user-agent", Sitemap: "sitemap"} {
		var b [16]byte
		copy(b[:], name)
		w[kind] = [2]uint64{binary.LittleEndian.Uint64(b[:8]) | 0x2020202020202020, binary.LittleEndian.Uint64(b[8:]) | 0x2020202020202020}
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
