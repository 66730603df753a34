package api

import (
	"bytes"
	"encoding/json"
	"unicode"
	"unicode/utf8"
)

// checkDuplicateKeys returns a 400 naming the first key that an object of
// data, a JSON value, gives twice, at any depth; nil when none does.
// encoding/json keeps the last of two values for one field without a
// word, so a request naming a field twice would be read as one of its
// readings: it is refused instead. Two keys are the same when
// encoding/json would fill the same field with them: equal under its case
// folding ("mode", "Mode", "MODE"), after unescaping. data is the body
// read, bounded by MaxRequestBytes, and already decoded without error.
func checkDuplicateKeys(data []byte) *Error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers are skipped: none may fail to convert
	var stack []*jsonLevel
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the end, or malformed input decoding already refused
		}
		if top := topLevel(stack); top != nil && top.wantKey && tok != json.Delim('}') {
			key, _ := tok.(string) // in an object, a key comes where a value has ended
			if !top.addKey(key) {
				return BadRequest("duplicate key %s: give each field once", QuoteInput(key))
			}
			top.wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &jsonLevel{keys: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &jsonLevel{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: the object holding it wants its next key.
		if top := topLevel(stack); top != nil && top.keys != nil {
			top.wantKey = true
		}
	}
}

// topLevel returns the innermost array or object of stack, or nil.
func topLevel(stack []*jsonLevel) *jsonLevel {
	if len(stack) == 0 {
		return nil
	}
	return stack[len(stack)-1]
}

// jsonLevel is an array or object being walked: for an object, the
// folded keys seen and whether the next token is a key.
type jsonLevel struct {
	keys    map[string]bool // nil for an array
	wantKey bool
}

// addKey records key and reports whether it is new.
func (l *jsonLevel) addKey(key string) bool {
	folded := foldKey(key)
	if l.keys[folded] {
		return false
	}
	l.keys[folded] = true
	return true
}

// foldKey returns key folded as encoding/json matches keys to fields:
// ASCII letters upper-cased, any other rune replaced by the smallest of
// its case-folding orbit; foldKey(a) == foldKey(b) exactly when
// bytes.EqualFold(a, b).
func foldKey(key string) string {
	out := make([]byte, 0, len(key))
	for i := 0; i < len(key); {
		if c := key[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(key[i:])
		out = utf8.AppendRune(out, smallestFold(r))
		i += n
	}
	return string(out)
}

// smallestFold returns the smallest rune of r's case-folding orbit.
func smallestFold(r rune) rune {
	for {
		next := unicode.SimpleFold(r)
		if next <= r {
			return next
		}
		r = next
	}
}
