// Package surveysql reads the Parquet output of "robots survey" with
// DuckDB, as a researcher would, and checks that it says what the command
// printed: it runs summary.sql, the SQL of the summary's tables, over a
// survey of testdata/corpus and compares every figure with the summary on
// standard output, and the rows with those of a --format jsonl run of the
// same input. It reads the files of a sharded run as one table too, and
// runs redirects.sql, which follows the redirects whose target another
// WARC file of the run captured, over a survey of three such files.
//
// It is a Go module of its own, so that the robots module never depends
// on DuckDB, whose Go driver (github.com/duckdb/duckdb-go/v2) links
// DuckDB's C++ library through cgo. The tests build the robots command in
// the root module of this checkout, with its own go.mod, so that this
// go.mod follows only DuckDB and needs no update when the root module's
// dependencies change. They need cgo and a C and C++ compiler (Debian's
// gcc and g++: apt-get install build-essential); without cgo they skip,
// and fail under CI=true. Run them from this directory:
//
//	go test ./...
//
// The first run downloads DuckDB's library for the platform (about 130 MB
// for linux-amd64) and links it; later runs reuse the build cache.
package surveysql
