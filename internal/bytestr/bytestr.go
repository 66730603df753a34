// Package bytestr turns bytes into a string without copying them. It is
// the module's one zero-copy view of bytes as a string, outside the
// parser's view of the body it reads: every caller keeps the bytes
// unchanged while the string lives, and says at the call why that holds.
package bytestr

import "unsafe"

// String returns a string of b's bytes, sharing their memory. It is sound
// only if b is not modified while the string, or any string cut from it,
// is in use: a Go string is immutable, and code that reads one relies on
// it. A caller builds b, then hands out its string and writes b no more.
func String(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
