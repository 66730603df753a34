package usage

import (
	"errors"
	"unicode/utf8"
)

// Kind is the type of a dictionary member's value (RFC 9651 section 3).
type Kind uint8

// The kinds of value. Only KindToken carries a meaning for preferences;
// the others are read so that a malformed value is detected.
const (
	KindInteger Kind = iota + 1
	KindDecimal
	KindString
	KindToken
	KindByteSequence
	KindBoolean
	KindDate
	KindDisplayString
	KindInnerList
)

// Member is one key and its value in a dictionary. Parameters are parsed
// and checked but not kept: no draft gives them a meaning.
type Member struct {
	// Key is the member's key, lower case by construction.
	Key string
	// Kind is the type of the value; a key without "=" is KindBoolean.
	Kind Kind
	// Token is the value when Kind is KindToken, "" otherwise.
	Token string
	// Bool is the value when Kind is KindBoolean.
	Bool bool
}

// Dictionary is a parsed RFC 9651 dictionary: its members in input order,
// duplicates included. Lookup applies the rule that the last duplicate wins.
type Dictionary []Member

// Lookup returns the member for key: the last one of that key, since
// RFC 9651 section 4.2.2 overwrites a duplicate's value.
func (d Dictionary) Lookup(key string) (Member, bool) {
	for i := len(d) - 1; i >= 0; i-- {
		if d[i].Key == key {
			return d[i], true
		}
	}
	return Member{}, false
}

// Errors a parse returns. ErrSyntax covers every departure from RFC 9651
// section 4.2; ErrLimit a value past one of the limits in limits.go.
var (
	ErrSyntax = errors.New("usage: not an RFC 9651 dictionary")
	ErrLimit  = errors.New("usage: dictionary past a parse limit")
)

// ParseDictionary parses s as an RFC 9651 dictionary field value (section
// 4.2 with 4.2.2). The keys and token values of the result are substrings
// of s. An empty s is the empty dictionary.
func ParseDictionary(s string) (Dictionary, error) {
	p, err := newDictParser(s)
	if err != nil {
		return nil, err
	}
	var d Dictionary
	for {
		m, more, err := p.next()
		if err != nil {
			return nil, err
		}
		if !more {
			return d, nil
		}
		d = append(d, m)
	}
}

// dictParser reads a dictionary one member at a time, so that a caller
// needing a few keys allocates nothing.
type dictParser struct {
	s       string
	i       int
	members int
	done    bool
}

// newDictParser starts a parse of s, discarding the leading spaces RFC
// 9651 section 4.2 allows. It returns a value so that a parse stays on
// the caller's stack.
func newDictParser(s string) (dictParser, error) {
	if len(s) > MaxValueBytes {
		return dictParser{}, ErrLimit
	}
	p := dictParser{s: s}
	p.skip(' ')
	p.done = p.i == len(p.s)
	return p, nil
}

// next returns the next member; more is false at the end of the value.
func (p *dictParser) next() (m Member, more bool, err error) {
	if p.done {
		return Member{}, false, nil
	}
	if p.members++; p.members > MaxMembers {
		return Member{}, false, ErrLimit
	}
	if m, err = p.member(); err != nil {
		return Member{}, false, err
	}
	p.skipOWS()
	if p.i == len(p.s) {
		p.done = true
		return m, true, nil
	}
	if p.s[p.i] != ',' {
		return Member{}, false, ErrSyntax
	}
	p.i++
	p.skipOWS()
	if p.i == len(p.s) {
		return Member{}, false, ErrSyntax // a trailing comma
	}
	return m, true, nil
}

// member reads "key", "key;params" or "key=value".
func (p *dictParser) member() (Member, error) {
	key, err := p.key()
	if err != nil {
		return Member{}, err
	}
	if p.i < len(p.s) && p.s[p.i] == '=' {
		p.i++
		m, err := p.itemOrInnerList()
		m.Key = key
		return m, err
	}
	return Member{Key: key, Kind: KindBoolean, Bool: true}, p.params()
}

// itemOrInnerList reads a member's value (section 4.2.1.1).
func (p *dictParser) itemOrInnerList() (Member, error) {
	if p.i < len(p.s) && p.s[p.i] == '(' {
		return Member{Kind: KindInnerList}, p.innerList()
	}
	m, err := p.bareItem()
	if err != nil {
		return Member{}, err
	}
	return m, p.params()
}

// innerList reads "( item item ... )" and its parameters (4.2.1.2).
func (p *dictParser) innerList() error {
	p.i++ // '('
	for n := 0; ; n++ {
		p.skip(' ')
		if p.i == len(p.s) {
			return ErrSyntax
		}
		if p.s[p.i] == ')' {
			p.i++
			return p.params()
		}
		if n == MaxInnerListMembers {
			return ErrLimit
		}
		if _, err := p.bareItem(); err != nil {
			return err
		}
		if err := p.params(); err != nil {
			return err
		}
		if p.i == len(p.s) || (p.s[p.i] != ' ' && p.s[p.i] != ')') {
			return ErrSyntax
		}
	}
}

// params reads ";key" and ";key=value" runs (4.2.3.2); their values are
// checked and dropped.
func (p *dictParser) params() error {
	for n := 0; p.i < len(p.s) && p.s[p.i] == ';'; n++ {
		if n == MaxParams {
			return ErrLimit
		}
		p.i++
		p.skip(' ')
		if _, err := p.key(); err != nil {
			return err
		}
		if p.i < len(p.s) && p.s[p.i] == '=' {
			p.i++
			if _, err := p.bareItem(); err != nil {
				return err
			}
		}
	}
	return nil
}

// key reads a key: lcalpha or '*', then lcalpha, DIGIT, "_-.*" (4.2.3.3).
func (p *dictParser) key() (string, error) {
	start := p.i
	if p.i == len(p.s) || !(isLower(p.s[p.i]) || p.s[p.i] == '*') {
		return "", ErrSyntax
	}
	for p.i++; p.i < len(p.s) && isKeyChar(p.s[p.i]); p.i++ {
	}
	return p.s[start:p.i], nil
}

// bareItem reads one bare item, its type told by its first byte (4.2.3.1).
func (p *dictParser) bareItem() (Member, error) {
	if p.i == len(p.s) {
		return Member{}, ErrSyntax
	}
	switch c := p.s[p.i]; {
	case c == '-' || isDigit(c):
		k, err := p.number()
		return Member{Kind: k}, err
	case c == '"':
		return Member{Kind: KindString}, p.str()
	case isAlpha(c) || c == '*':
		return Member{Kind: KindToken, Token: p.token()}, nil
	case c == ':':
		return Member{Kind: KindByteSequence}, p.byteSequence()
	case c == '?':
		b, err := p.boolean()
		return Member{Kind: KindBoolean, Bool: b}, err
	case c == '@':
		return Member{Kind: KindDate}, p.date()
	case c == '%':
		return Member{Kind: KindDisplayString}, p.displayString()
	}
	return Member{}, ErrSyntax
}

// number reads an integer (at most 15 digits) or a decimal (at most 12
// integer and 3 fraction digits), section 4.2.4.
func (p *dictParser) number() (Kind, error) {
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i == len(p.s) || !isDigit(p.s[p.i]) {
		return 0, ErrSyntax
	}
	kind, digits, dot := KindInteger, 0, -1
	for ; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		if isDigit(c) {
			digits++
		} else if c == '.' && kind == KindInteger {
			if digits > 12 {
				return 0, ErrSyntax
			}
			kind, dot = KindDecimal, digits
		} else {
			break
		}
		if (kind == KindInteger && digits > 15) || (kind == KindDecimal && digits+1 > 16) {
			return 0, ErrSyntax
		}
	}
	if kind == KindDecimal && (digits == dot || digits-dot > 3) {
		return 0, ErrSyntax
	}
	return kind, nil
}

// str reads a quoted string: printable ASCII, with \" and \\ (4.2.5).
func (p *dictParser) str() error {
	for p.i++; p.i < len(p.s); p.i++ {
		switch c := p.s[p.i]; {
		case c == '\\':
			p.i++
			if p.i == len(p.s) || (p.s[p.i] != '"' && p.s[p.i] != '\\') {
				return ErrSyntax
			}
		case c == '"':
			p.i++
			return nil
		case c < 0x20 || c > 0x7e:
			return ErrSyntax
		}
	}
	return ErrSyntax
}

// token reads a token: tchar, ':' and '/' after the first byte (4.2.6).
func (p *dictParser) token() string {
	start := p.i
	for p.i++; p.i < len(p.s) && isTokenChar(p.s[p.i]); p.i++ {
	}
	return p.s[start:p.i]
}

// byteSequence reads ":base64:" (4.2.7), checking the alphabet only: a
// preference never needs the bytes.
func (p *dictParser) byteSequence() error {
	for p.i++; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		if c == ':' {
			p.i++
			return nil
		}
		if !(isAlpha(c) || isDigit(c) || c == '+' || c == '/' || c == '=') {
			return ErrSyntax
		}
	}
	return ErrSyntax
}

// boolean reads "?1" or "?0" (4.2.8).
func (p *dictParser) boolean() (bool, error) {
	if p.i+1 >= len(p.s) || (p.s[p.i+1] != '0' && p.s[p.i+1] != '1') {
		return false, ErrSyntax
	}
	p.i += 2
	return p.s[p.i-1] == '1', nil
}

// date reads "@" and an integer (4.2.9).
func (p *dictParser) date() error {
	p.i++
	if p.i == len(p.s) {
		return ErrSyntax
	}
	if c := p.s[p.i]; c != '-' && !isDigit(c) {
		return ErrSyntax
	}
	kind, err := p.number()
	if err == nil && kind != KindInteger {
		err = ErrSyntax
	}
	return err
}

// displayString reads %"..." with %xx escapes of UTF-8 in lower-case hex
// (4.2.10).
func (p *dictParser) displayString() error {
	p.i++
	if p.i == len(p.s) || p.s[p.i] != '"' {
		return ErrSyntax
	}
	var buf [utf8.UTFMax]byte
	n := 0 // bytes of a multi-byte rune decoded so far
	for p.i++; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		switch {
		case c < 0x20 || c > 0x7e:
			return ErrSyntax
		case c == '"':
			p.i++
			if n != 0 {
				return ErrSyntax
			}
			return nil
		case c == '%':
			if p.i+2 >= len(p.s) || !isLowerHex(p.s[p.i+1]) || !isLowerHex(p.s[p.i+2]) {
				return ErrSyntax
			}
			buf[n] = hexValue(p.s[p.i+1])<<4 | hexValue(p.s[p.i+2])
			n++
			p.i += 2
			if utf8.FullRune(buf[:n]) {
				if r, size := utf8.DecodeRune(buf[:n]); r == utf8.RuneError && size == 1 {
					return ErrSyntax
				}
				n = 0
			}
		default:
			if n != 0 {
				return ErrSyntax
			}
		}
	}
	return ErrSyntax
}

func (p *dictParser) skip(c byte) {
	for p.i < len(p.s) && p.s[p.i] == c {
		p.i++
	}
}

func (p *dictParser) skipOWS() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isLower(c byte) bool    { return 'a' <= c && c <= 'z' }
func isAlpha(c byte) bool    { return isLower(c) || ('A' <= c && c <= 'Z') }
func isLowerHex(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') }

func hexValue(c byte) byte {
	if isDigit(c) {
		return c - '0'
	}
	return c - 'a' + 10
}

func isKeyChar(c byte) bool {
	return isLower(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*'
}

// isTokenChar reports whether c may follow a token's first byte: a tchar
// of RFC 9110 section 5.6.2, ':' or '/'.
func isTokenChar(c byte) bool {
	if isAlpha(c) || isDigit(c) {
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~', ':', '/':
		return true
	}
	return false
}
