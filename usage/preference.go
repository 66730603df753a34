package usage

// Preference is a statement of preference: a Value for each Category.
// The zero Preference states nothing (every category Unknown).
type Preference [numCategories]Value

// Get returns the preference's value for c; Unknown for a category this
// package does not know.
func (p Preference) Get(c Category) Value {
	if int(c) >= len(p) {
		return Unknown
	}
	return p[c]
}

// String writes the preference in the dictionary syntax, known categories
// only, in table order ("train-ai=n, search=y"); "" when it states
// nothing.
func (p Preference) String() string {
	s := ""
	for c, v := range p {
		if v == Unknown {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += Vocabulary[c].Label + "=" + v.token()
	}
	return s
}

// CombinePreferences returns a and b taken together, category by category
// (Combine).
func CombinePreferences(a, b Preference) Preference {
	for c := range a {
		a[c] = Combine(a[c], b[c])
	}
	return a
}

// ParsePreference reads s, the exemplary format of draft-ietf-aipref-
// vocab-08 section 6: an RFC 9651 dictionary whose keys are the labels of
// Vocabulary and whose values are the tokens y and n. Unknown keys, other
// values and every parameter are ignored; the last member of a duplicated
// key decides. ok is false when s is not a dictionary (or is past a limit
// of limits.go); every category is then Unknown, as section 6.5.1 says.
func ParsePreference(s string) (p Preference, ok bool) {
	d, err := newDictParser(s)
	if err != nil {
		return Preference{}, false
	}
	for {
		m, more, err := d.next()
		if err != nil {
			return Preference{}, false
		}
		if !more {
			return p, true
		}
		if c, known := CategoryOf(m.Key); known {
			p[c] = valueOf(m)
		}
	}
}

// valueOf maps a member's value to a preference: the tokens y and n only.
func valueOf(m Member) Value {
	if m.Kind == KindToken {
		switch m.Token {
		case "y":
			return Yes
		case "n":
			return No
		}
	}
	return Unknown
}

// token returns the dictionary token of a stated value.
func (v Value) token() string {
	if v == No {
		return "n"
	}
	return "y"
}
