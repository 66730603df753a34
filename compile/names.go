package compile

// names indexes the product tokens the groups name: for each distinct
// token, ignoring ASCII case, the groups that name it, each once, in file
// order. A file names a few agents, so they are found by a scan that
// compares tokens in place, with nothing folded or copied; past
// namesScanMax tokens a map of the folded tokens takes over, so that a
// file naming thousands of agents is still read in linear time.
type names struct {
	list  []name
	index map[string]int32 // folded token -> index into list; nil while short
}

type name struct {
	token  string // as written, a substring of the body
	groups []int32
}

// namesScanMax is the number of distinct tokens up to which lookups scan.
const namesScanMax = 16

// add records that group gi names token.
func (n *names) add(token string, gi int32) {
	if i, ok := n.find(token); ok {
		n.list[i].groups = appendGroup(n.list[i].groups, gi)
		return
	}
	n.list = append(n.list, name{token: token, groups: []int32{gi}})
	switch {
	case n.index != nil:
		n.index[FoldAgent(token)] = int32(len(n.list) - 1)
	case len(n.list) > namesScanMax:
		n.index = make(map[string]int32, 2*len(n.list))
		for i, nm := range n.list {
			n.index[FoldAgent(nm.token)] = int32(i)
		}
	}
}

// find returns the index of token in the list, ignoring ASCII case.
func (n *names) find(token string) (int32, bool) {
	if n.index == nil {
		for i := range n.list {
			if equalFold(n.list[i].token, token) {
				return int32(i), true
			}
		}
		return 0, false
	}
	var buf [64]byte
	key := buf[:0]
	if len(token) > len(buf) {
		key = make([]byte, 0, len(token))
	}
	for i := 0; i < len(token); i++ {
		key = append(key, lowerASCII(token[i]))
	}
	i, ok := n.index[string(key)]
	return i, ok
}

// groupsOf returns the groups that name token, ignoring ASCII case.
func (n *names) groupsOf(token string) ([]int32, bool) {
	i, ok := n.find(token)
	if !ok {
		return nil, false
	}
	return n.list[i].groups, true
}

// appendGroup appends gi unless it is already the last entry: a group that
// names the same agent twice is still merged once.
func appendGroup(list []int32, gi int32) []int32 {
	if n := len(list); n > 0 && list[n-1] == gi {
		return list
	}
	return append(list, gi)
}

// equalFold reports whether a and b are equal ignoring ASCII case.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] && lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}
