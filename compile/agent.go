package compile

// ExtractAgent returns the product token at the start of a user-agent value:
// the longest prefix of letters, '-' and '_'. "Googlebot/2.1" yields
// "Googlebot" and "Foo Bar" yields "Foo". Google compares only this token.
func ExtractAgent(value string) string {
	i := 0
	for i < len(value) && isAgentByte(value[i]) {
		i++
	}
	return value[:i]
}

func isAgentByte(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c == '-' || c == '_'
}

// ValidAgent reports whether agent is a product token a crawler can obey:
// non-empty and made only of letters, '-' and '_' (RFC 9309 section 2.2.1).
func ValidAgent(agent string) bool {
	return agent != "" && ExtractAgent(agent) == agent
}

// IsGlobalAgent reports whether a user-agent value names every crawler. RFC
// 9309 spells it "*"; Google also reads "*" followed by white space and
// anything else as the global agent.
func IsGlobalAgent(value string, mode Mode) bool {
	return isGlobalAgent(value, mode.Dialect().ExactGlobalAgent)
}

func isGlobalAgent(value string, exact bool) bool {
	if exact {
		return value == "*"
	}
	return len(value) > 0 && value[0] == '*' && (len(value) == 1 || isSpace(value[1]))
}

// FoldAgent returns s with ASCII letters lower-cased, the form in which
// agents are indexed and looked up: Google compares agents ignoring ASCII
// case only.
func FoldAgent(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			return string(b)
		}
	}
	return s
}
