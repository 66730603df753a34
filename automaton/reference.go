package automaton

// The definition of what a set of patterns decides, written for reading
// rather than speed; every fast form is tested against it.

// Matches reports whether pattern matches path. A pattern matches when it
// matches a prefix of path: '*' matches any run of bytes, the empty run
// too; a '$' that ends the pattern matches only the end of the path; every
// other byte, '$' elsewhere included, matches itself.
func Matches(path, pattern string) bool {
	ends := []int{0}
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '$' && i == len(pattern)-1:
			return ends[len(ends)-1] == len(path)
		case c == '*':
			first := ends[0]
			ends = ends[:0]
			for j := first; j <= len(path); j++ {
				ends = append(ends, j)
			}
		default:
			next := ends[:0]
			for _, j := range ends {
				if j < len(path) && path[j] == c {
					next = append(next, j+1)
				}
			}
			if ends = next; len(ends) == 0 {
				return false
			}
		}
	}
	return true
}

// Reference returns the pattern that decides path, and true, or false when
// no pattern matches: every pattern is tested with Matches, the highest
// priority wins, allow wins a tie (Pattern.Beats), and of patterns equal in
// both the one given first wins. A pattern with an empty Expr decides
// nothing.
func Reference(patterns []Pattern, path string) (best Pattern, ok bool) {
	for _, p := range patterns {
		if p.Expr != "" && Matches(path, p.Expr) && (!ok || p.Beats(best)) {
			best, ok = p, true
		}
	}
	return best, ok
}
