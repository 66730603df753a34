// Package fuzzgen holds what the robots.txt engine is fuzzed with: a
// generator of random robots.txt files derived from the ABNF of RFC 9309
// section 2.2, which knows the structure it wrote (Generate); mutations that
// take such a file out of the grammar in the ways real files do
// (mutate.go); an independent reading of lines and keys as Google's
// reference parser reads them (ReferenceScan); a printer that writes a
// parsed file back (Format); the seed corpora (seeds.go); and the invariants
// every fuzz target checks (check.go), shared by the native targets in the
// packages' *fuzz_test.go files and by the go-fuzz harnesses under
// fuzz/gofuzz.
//
// The oracles here are written apart from the code they check, from the
// RFC and from the reference parser's documented behaviour, so that a bug
// in one is not silently copied into the other. docs/fuzzing.md tells how
// to run every target and how to turn a crasher into a regression test.
package fuzzgen
