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

	// kindCount is the number of kinds: a new kind goes above it, with its
	// field in fields, and every switch on Kind names it (TestEveryKindIs*
	// fail until they do).
	kindCount
)

// field is the grammar of one kind's key: its field name, and the
// misspellings Google accepts and RFC 9309 does not, in the order Google
// tests them.
type field struct {
	name  string
	typos []string
}

// fields is the grammar of keys, the one table every recogniser derives
// from: ClassifyKey's spellings, and the words that canonicalKind and the
// quick path (quickKey) compare. A key is the first spelling it starts
// with ("allowed" is an allow, "disallowed" a disallow). The spellings of
// one kind share a first letter and no two kinds do (spellingsByLetter
// relies on it, and panics otherwise), so a key is tried against one
// kind's spellings alone.
var fields = [kindCount]field{
	UserAgent: {"user-agent", []string{"useragent", "user agent"}},
	Allow:     {"allow", nil},
	Disallow:  {"disallow", []string{"dissallow", "dissalow", "disalow", "diasllow", "disallaw"}},
	Sitemap:   {"sitemap", []string{"site-map"}},
}

// keySpelling is one spelling of a field name and the kind it stands for.
// typo marks misspellings that Google accepts and RFC 9309 does not.
type keySpelling struct {
	name string
	kind Kind
	typo bool
}

// spellingsByLetter indexes the spellings of fields by their first
// letter, the field name first and its typos in order.
var spellingsByLetter = func() (by [256][]keySpelling) {
	var kindOfLetter [256]Kind
	for kind := Unknown + 1; kind < kindCount; kind++ {
		f := fields[kind]
		for i, name := range append([]string{f.name}, f.typos...) {
			c := name[0]
			if other := kindOfLetter[c]; other != Unknown && other != kind {
				panic("compile: two kinds of key share the first letter " + string(c))
			}
			kindOfLetter[c] = kind
			by[c] = append(by[c], keySpelling{name: name, kind: kind, typo: i > 0})
		}
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

// canonicalKind recognises a key that starts with (or, when exact, is)
// one of the field names, ignoring case, a word at a time.
func canonicalKind(key string, exact bool) (Kind, bool) {
	n := int(nameWords[kindByLetter[key[0]]].n)
	if len(key) < n || exact && len(key) != n {
		return Unknown, false
	}
	if len(key) < wordBytes {
		var w [wordBytes]byte
		copy(w[:], key)
		kind, _ := fieldPrefix(unsafe.String(&w[0], wordBytes))
		return kind, kind != Unknown
	}
	kind, _ := fieldPrefix(key)
	return kind, kind != Unknown
}

// fieldPrefix returns the kind whose field name s starts with, ignoring
// case, and the name's length; Unknown and 0 when none. s must hold
// quickKeyRoom bytes, or wordBytes and the length of the field name its
// first byte may start. It is small enough to inline into quickKey.
func fieldPrefix(s string) (Kind, int) {
	kind := kindByLetter[s[0]]
	w := &nameWords[kind]
	if loadWord(s)&w.headBytes|w.headFold != w.head ||
		w.n > wordBytes && loadWord(s[w.n-wordBytes:])|w.tailFold != w.tail {
		return Unknown, 0
	}
	return kind, int(w.n)
}

// nameWord is a field name as the words fieldPrefix compares: its first
// eight bytes (fewer in headBytes for a shorter name) and, for a longer
// one, its last eight. The fold masks set 0x20 on the letters alone: a
// key's bytes are or-ed with them, which lower-cases letters and turns no
// other byte into a letter or into the name's '-'.
type nameWord struct {
	head, headBytes, headFold uint64
	tail, tailFold            uint64
	n                         uint8 // the name's length
}

// nameWords and kindByLetter derive from fields: each kind's nameWord
// (Unknown's matches nothing), and the kind whose field name starts with
// a byte, in either case.
var (
	nameWords    [kindCount]nameWord
	kindByLetter [256]Kind
	// quickKeyRoom is the longest field name and its colon: quickKey reads
	// as many bytes at once.
	quickKeyRoom = wordBytes
)

func init() {
	nameWords[Unknown] = nameWord{head: 1} // no word masked to 0 equals 1
	for kind := Unknown + 1; kind < kindCount; kind++ {
		name := fields[kind].name
		head := name[:min(len(name), wordBytes)]
		w := nameWord{headBytes: lanes(len(head)), headFold: foldMask(head), n: uint8(len(name))}
		w.head = wordOf(head) | w.headFold
		if len(name) > wordBytes {
			tail := name[len(name)-wordBytes:]
			w.tailFold = foldMask(tail)
			w.tail = wordOf(tail) | w.tailFold
		}
		nameWords[kind] = w
		kindByLetter[name[0]] = kind
		kindByLetter[name[0]&^0x20] = kind
		quickKeyRoom = max(quickKeyRoom, len(name)+1)
	}
}

// lanes returns the mask of the first n bytes of a little-endian word.
func lanes(n int) uint64 { return 1<<(8*n) - 1 }

// foldMask returns a word with 0x20 on the bytes of s that are letters.
func foldMask(s string) uint64 {
	var m uint64
	for i := len(s) - 1; i >= 0; i-- {
		m <<= 8
		if 'a' <= s[i] && s[i] <= 'z' {
			m |= 0x20
		}
	}
	return m
}

// loadWord returns the first eight bytes of s, which must have as many,
// as a little-endian word.
func loadWord(s string) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
}

// wordOf returns up to the first eight bytes of s as a little-endian word.
func wordOf(s string) uint64 {
	var w uint64
	for i := min(len(s), 8) - 1; i >= 0; i-- {
		w = w<<8 | uint64(s[i])
	}
	return w
}

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
