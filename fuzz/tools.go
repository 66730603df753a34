//go:build tools

package fuzz

// go-fuzz-build links go-fuzz-dep into the harnesses under fuzz/gofuzz; the
// import keeps it in go.mod so that the build finds it.
import _ "github.com/dvyukov/go-fuzz/go-fuzz-dep"
