package compile

import "github.com/fastrobots/robots/internal/word"

// Kind is what a directive line does.
type Kind uint8

const (
	Unknown   Kind = iota // any key not listed below; kept, never matched
	UserAgent             // starts or extends a group
	Allow                 // a rule that allows matching paths
	Disallow              // a rule that disallows matching paths
	Sitemap               // a sitemap URL, outside any group

	// kindCount is the number of kinds; a new kind goes above it, with its
	// field in fields, and every switch on Kind must name it.
	kindCount
)

// field is the grammar of one kind's key: its name, and the misspellings
// Google accepts and RFC 9309 does not, in the order Google tests them.
type field struct {
	name  string
	typos []string
}

// fields is the grammar of keys, which every recogniser derives from. A
// key is the first spelling it starts with ("disallowed" is a disallow).
// The spellings of one kind share a first letter and no two kinds do
// (spellingsByLetter panics otherwise).
var fields = [kindCount]field{
	UserAgent: {"user-agent", []string{"useragent", "user agent"}},
	Allow:     {"allow", nil},
	Disallow:  {"disallow", []string{"dissallow", "dissalow", "disalow", "diasllow", "disallaw"}},
	Sitemap:   {"sitemap", []string{"site-map"}},
}

type keySpelling struct {
	name string
	kind Kind
	typo bool
}

// spellingsByLetter indexes fields' spellings by first letter, in order.
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

const wordBytes = 8

// kindOf is classifyKey's kind, tried first on the canonical spellings,
// which nearly every key is.
func kindOf(key string, exact bool) Kind {
	if kind, ok := canonicalKind(key, exact); ok {
		return kind
	}
	kind, _, _ := classifyKey(key, exact)
	return kind
}

func canonicalKind(key string, exact bool) (Kind, bool) {
	n := int(nameByLetter[key[0]%letterSlots].n)
	if len(key) < n || exact && len(key) != n {
		return Unknown, false
	}
	if len(key) < wordBytes {
		var w [wordBytes]byte
		copy(w[:], key)
		kind, _ := fieldPrefix(string(w[:]))
		return kind, kind != Unknown
	}
	kind, _ := fieldPrefix(key)
	return kind, kind != Unknown
}

// fieldPrefix returns the kind whose field name s starts with, ignoring
// case, and the name's length; Unknown and 0 when none. s must hold
// wordBytes bytes and the length of the name its first byte may start.
func fieldPrefix(s string) (Kind, int) {
	w := &nameByLetter[s[0]%letterSlots]
	if !w.prefixOf(s) {
		return Unknown, 0
	}
	return w.kind, int(w.n)
}

// prefixOf reports whether s, of at least wordBytes and n bytes, starts
// with the words' text, ignoring case.
func (w *nameWord) prefixOf(s string) bool {
	return word.Load(s)&w.headBytes|w.headFold == w.head &&
		(w.n <= wordBytes || word.At(s, int(w.n)-wordBytes)|w.tailFold == w.tail)
}

// nameWord is a text (a field name, or one and its colon) as the words
// prefixOf compares: its first eight bytes (headBytes masks a shorter
// text) and, for a longer one, its last eight. The fold masks set 0x20 on
// the letters alone: or-ing a key's bytes with them lower-cases letters and
// turns no other byte into a letter or into the name's '-'.
type nameWord struct {
	head, headBytes, headFold uint64
	tail, tailFold            uint64
	n                         uint8 // the text's length
	kind                      Kind
}

func wordsOf(kind Kind, text string) nameWord {
	head := text[:min(len(text), wordBytes)]
	w := nameWord{headBytes: lanes(len(head)), headFold: foldMask(head), n: uint8(len(text)), kind: kind}
	w.head = wordOf(head) | w.headFold
	if len(text) > wordBytes {
		tail := text[len(text)-wordBytes:]
		w.tailFold = foldMask(tail)
		w.tail = wordOf(tail) | w.tailFold
	}
	return w
}

// nameByLetter holds, at a letter's slot (its low five bits), the
// nameWord of the field name that starts with it, and elsewhere one that
// matches nothing. A byte that shares a letter's slot fails the
// comparison, which folds the first byte as it folds the others.
var nameByLetter [letterSlots]nameWord

// keyByLetter is nameByLetter for each field name and its colon.
var keyByLetter [letterSlots]nameWord

const letterSlots = 32

// quickKeyRoom is the room quickKey needs to read any field name and its
// colon, and at least a word; init checks it.
const quickKeyRoom = len("user-agent:")

func init() {
	for c := range nameByLetter {
		nameByLetter[c] = nameWord{head: 1} // no word masked to 0 equals 1
		keyByLetter[c] = nameByLetter[c]
	}
	for kind := Unknown + 1; kind < kindCount; kind++ {
		name := fields[kind].name
		slot := name[0] % letterSlots
		if nameByLetter[slot].n != 0 {
			panic("compile: two fields start with the letter " + name[:1])
		}
		nameByLetter[slot] = wordsOf(kind, name)
		keyByLetter[slot] = wordsOf(kind, name+":")
		if len(name)+1 > quickKeyRoom || quickKeyRoom < wordBytes {
			panic("compile: quickKeyRoom is too small for the field " + name)
		}
	}
}

// lanes returns the mask of the first n bytes of a little-endian word.
func lanes(n int) uint64 { return 1<<(8*n) - 1 }

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

func wordOf(s string) uint64 {
	var w uint64
	for i := min(len(s), 8) - 1; i >= 0; i-- {
		w = w<<8 | uint64(s[i])
	}
	return w
}

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
