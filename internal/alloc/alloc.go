// Package alloc says how many bytes Go's allocator takes for an object:
// the memory an object really holds, which is what the library charges
// for what it keeps (robots.Robots.MemoryBytes, fetch.Cache's entries).
//
// Small objects are rounded up to the allocator's size classes (a 104-byte
// struct takes 112 bytes), large ones to whole pages. The table is the Go
// runtime's (runtime/sizeclasses.go), which has not changed since Go 1.x
// releases began publishing it; TestSizeMatchesTheAllocator holds it to
// the runtime on every run.
package alloc

import "reflect"

// classes are the allocator's size classes up to maxSmall.
var classes = [...]uint16{
	8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024,
	1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096,
	4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880, 12288,
	13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768,
}

// smallMax is the largest size small answers for: most objects the
// library charges are smaller, and a memory report reads a table rather
// than search classes.
const smallMax = 1024

// small is the size class of each size up to smallMax, by (n+7)/8.
var small = func() (t [smallMax/8 + 1]uint16) {
	c := 0
	for i := range t {
		for int(classes[c]) < 8*i {
			c++
		}
		t[i] = classes[c]
	}
	return t
}()

// maxSmall is the largest small object; larger ones take whole pages.
const maxSmall = 32768

// pageBytes is the allocator's page.
const pageBytes = 8192

// Size returns the bytes an allocation of n bytes takes: 0 for none, the
// size class of a small object, whole pages for a large one.
func Size(n int) int {
	switch {
	case n <= 0:
		return 0
	case n > maxSmall:
		return (n + pageBytes - 1) / pageBytes * pageBytes
	}
	if n <= smallMax {
		return int(small[(n+7)>>3])
	}
	lo, hi := 0, len(classes)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if int(classes[mid]) < n {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return int(classes[lo])
}

// MapBytes estimates the memory of a Go map of n entries whose key and
// value take slot bytes together: the slots of its groups of eight, kept
// at most seven eighths full and grown by doubling, their control words,
// and the map's header.
func MapBytes(n, slot int) int {
	if n == 0 {
		return 0
	}
	slots := 8
	for slots*7/8 < n {
		slots *= 2
	}
	return slots*slot + slots + 48
}

// SizeOf returns the size of a value of type T, in bytes: what
// unsafe.Sizeof gives, without package unsafe.
func SizeOf[T any]() int { return int(reflect.TypeFor[T]().Size()) }

// Wide reports whether ints and pointers are 64 bits wide. The sizes the
// library charges for its own structs are a 64-bit build's, which tests
// pin; on a 32-bit build the structs are smaller and the same charges
// bound them from above.
const Wide = ^uint(0)>>32 != 0
