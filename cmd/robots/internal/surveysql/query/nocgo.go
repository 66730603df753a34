//go:build !cgo

package main

import (
	"fmt"
	"os"
)

// Without cgo, DuckDB's library cannot be linked: the command says what
// to install.
func main() {
	fmt.Fprintln(os.Stderr, "query: built without cgo: DuckDB's driver needs it; install a C and C++ compiler (apt-get install build-essential) and set CGO_ENABLED=1")
	os.Exit(2)
}
