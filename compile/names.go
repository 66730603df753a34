package compile

// names indexes the product tokens the groups name: for each distinct
// token, ignoring ASCII case, the groups that name it, each once, in file
// order. Tokens are hashed and compared ignoring case, in place, so
// nothing is folded into a copy.
type names struct {
	list   []name
	slots  []int32 // index into list + 1; 0 is free; len is a power of two
	groups []int32 // every name's groups, one name after another
}

type name struct {
	token  string // as written: while parsing in the body, then in the arena
	agent  int32  // the first user-agent line that names it
	lo, hi int32  // its groups: names.groups[lo:hi]
	hash   uint32 // foldHash(token), hashed once for every placing
}

const minSlots = 16

// lookup returns the index of token, adding it when it is new.
func (n *names) lookup(token string, agent int32) int32 {
	h := foldHash(token)
	if i, ok := n.findHashed(token, h); ok {
		return i
	}
	if 2*(len(n.list)+1) > len(n.slots) {
		n.grow()
	}
	n.list = append(n.list, name{token: token, agent: agent, hash: h})
	n.place(int32(len(n.list) - 1))
	return int32(len(n.list) - 1)
}

// find returns the index of token, ignoring ASCII case; n may be nil,
// for a file that names no token.
func (n *names) find(token string) (int32, bool) {
	if n == nil || len(n.slots) == 0 {
		return 0, false
	}
	return n.findHashed(token, foldHash(token))
}

// findHashed is find of a token whose foldHash is h.
func (n *names) findHashed(token string, h uint32) (int32, bool) {
	if len(n.slots) == 0 {
		return 0, false
	}
	mask := uint32(len(n.slots) - 1)
	for i := h & mask; n.slots[i] != 0; i = (i + 1) & mask {
		if j := n.slots[i] - 1; equalFold(n.list[j].token, token) {
			return j, true
		}
	}
	return 0, false
}

func (n *names) grow() {
	n.slots = make([]int32, slotsFor(len(n.list)+1))
	for i := range n.list {
		n.place(int32(i))
	}
}

func (n *names) place(i int32) {
	mask := uint32(len(n.slots) - 1)
	j := n.list[i].hash & mask
	for n.slots[j] != 0 {
		j = (j + 1) & mask
	}
	n.slots[j] = i + 1
}

// finish returns the file's index of the names n collected, at its exact
// size with tokens in the arena, or nil when there are none. n is cleared,
// for reuse.
func (n *names) finish(f *File, named []namedAgent) *names {
	if len(n.list) == 0 {
		return nil // nothing was placed in the slots either
	}
	out := &names{list: exact(n.list)}
	clear(n.list) // the scratch must not keep the body's strings alive
	clear(n.slots)
	// The groups and the slots share one allocation, which memoryBytes
	// counts as one.
	buf := make([]int32, len(named)+slotsFor(len(out.list)))
	out.groups, out.slots = buf[:len(named):len(named)], buf[len(named):]
	for _, a := range named {
		out.list[a.name].hi++
	}
	lo := int32(0)
	for i := range out.list {
		nm := &out.list[i]
		lines := nm.hi
		nm.lo, nm.hi = lo, lo
		lo += lines
	}
	for _, a := range named {
		nm := &out.list[a.name]
		if nm.hi > nm.lo && out.groups[nm.hi-1] == a.group {
			continue // the group names the token twice
		}
		out.groups[nm.hi] = a.group
		nm.hi++
	}
	for i := range out.list {
		nm := &out.list[i]
		a := f.agents[nm.agent]
		nm.token = f.body[a.off : a.off+uint32(a.tok)]
	}
	for i := range out.list {
		out.place(int32(i))
	}
	return out
}

// slotsFor returns a power of two at least minSlots and twice n.
func slotsFor(n int) int {
	s := minSlots
	for s < 2*n {
		s *= 2
	}
	return s
}

// reuse empties n, keeping its memory unless it grew past builderKeepBytes.
func (n *names) reuse() {
	n.list = reuse(n.list)
	if 4*len(n.slots) > builderKeepBytes {
		n.slots = nil
	}
}

func (n *names) groupsOf(token string) ([]int32, bool) {
	i, ok := n.find(token)
	if !ok {
		return nil, false
	}
	nm := n.list[i]
	return n.groups[nm.lo:nm.hi:nm.hi], true
}

// foldHash hashes s with its ASCII letters lower-cased (FNV-1a).
func foldHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(lowerASCII(s[i]))) * 16777619
	}
	return h
}

// appendGroup appends gi unless it is already the last entry: a group that
// names the same agent twice is still merged once.
func appendGroup(list []int32, gi int32) []int32 {
	if n := len(list); n > 0 && list[n-1] == gi {
		return list
	}
	return append(list, gi)
}

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
