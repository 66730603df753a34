package usage

// Value is a preference for one category of use: Unknown, Yes (allowed)
// or No (disallowed). The zero Value is Unknown, the answer when nothing
// was stated.
type Value uint8

// The three values of the vocabulary's model (draft-ietf-aipref-vocab-08
// section 3).
const (
	Unknown Value = iota
	Yes
	No
)

// String returns "unknown", "yes" or "no".
func (v Value) String() string {
	switch v {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "unknown"
}

// Combine returns the value of two statements about the same category
// taken together (draft-ietf-aipref-vocab-08 section 5.1): No if either
// is No, else Yes if either is Yes, else Unknown. It is commutative and
// associative, which is why the order of rules carries no meaning.
func Combine(a, b Value) Value {
	return max(a, b) // the constants are ordered Unknown < Yes < No
}
