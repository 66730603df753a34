package automaton

import "encoding/binary"

// A state's positions are written as its kernel: the sorted set without
// the positions that follow a star of the set (the star's closure implies
// them), each as the varint of its distance from the previous one. Two
// states are equal exactly when their kernels and bests are.
//
// The states a path visits differ mostly in a little progress, so only
// some store their kernel; the others are replayed, stepping the state
// they were first reached from on the byte that reached them. A check
// building states along a new path replays nothing (replayMemo).

// replayLimit bounds the steps that replay a state's positions: kernels
// cost about 1/replayLimit of what storing them all would.
const replayLimit = 8

// appendKernel appends the encoded kernel of a sorted, closed set.
func appendKernel(dst []byte, p *prog, set []int32) []byte {
	prev := int32(-1)
	for i, q := range set {
		if i > 0 && set[i-1] == q-1 && p.kind[q-1] == starPos {
			continue
		}
		dst = binary.AppendUvarint(dst, uint64(q-prev))
		prev = q
	}
	return dst
}

// decodeKernel appends the sorted, closed set of an encoded kernel.
func decodeKernel(dst []int32, p *prog, kernel []byte) []int32 {
	q := int32(-1)
	for len(kernel) > 0 {
		delta, n := binary.Uvarint(kernel)
		kernel = kernel[n:]
		q += int32(delta)
		dst = append(dst, q)
		if p.kind[q] == starPos {
			dst = append(dst, q+1)
		}
	}
	return dst
}

// storedKernelBytes returns the bytes the arena takes to store kernel.
func storedKernelBytes(kernel []byte) int {
	var n [binary.MaxVarintLen64]byte
	return binary.PutUvarint(n[:], uint64(len(kernel))) + len(kernel)
}

func (d *dfa) storeKernel(kernel []byte) int32 {
	at := int32(len(d.arena))
	d.arena = binary.AppendUvarint(d.arena, uint64(len(kernel)))
	d.arena = append(d.arena, kernel...)
	return at
}

func (d *dfa) storedKernel(at int32) []byte {
	n, w := binary.Uvarint(d.arena[at:])
	lo := int(at) + w
	return d.arena[lo : lo+int(n)]
}

// kernelOf returns the kernel of state n: the arena's copy, or scratch
// that the next call reuses. d.mu must be held.
func (d *dfa) kernelOf(n int32) []byte {
	if at := d.states[n].kernel; at >= 0 {
		return d.storedKernel(at)
	}
	d.cand = d.replay(d.cand[:0], n)
	d.cenc = appendKernel(d.cenc[:0], d.prog, d.cand)
	return d.cenc
}

// positions returns the live positions of state n, in scratch that the
// next call reuses. d.mu must be held.
func (d *dfa) positions(n int32) []int32 {
	d.in = d.replay(d.in[:0], n)
	return d.in
}

// replay appends the positions of state n to dst, which must be empty and
// must not be step's scratch.
func (d *dfa) replay(dst []int32, n int32) []int32 {
	if d.memo.state == n {
		return append(dst, d.memo.set...)
	}
	info := &d.states[n]
	if info.kernel >= 0 {
		return decodeKernel(dst, d.prog, d.storedKernel(info.kernel))
	}
	dst = d.replay(dst, info.parent)
	set, _ := d.step(dst, d.states[info.parent].best, info.via)
	return append(dst[:0], set...)
}

// replayMemo keeps the positions of the state last added or found, which
// a check through new ground steps from next.
type replayMemo struct {
	state int32 // -1 for none
	set   []int32
}

func (m *replayMemo) keep(n int32, set []int32) {
	m.state, m.set = n, append(m.set[:0], set...)
}
