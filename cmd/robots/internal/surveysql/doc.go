// Package surveysql reads the Parquet output of "robots survey" with
// DuckDB, as a researcher would. Its query runner (Main, and the command
// in query/) runs the named queries of an SQL file, or a query of one's
// own, over the files of one or more runs with DuckDB's library linked in,
// where no duckdb command is installed:
//
//	go run ./cmd/robots/internal/surveysql/query -f cmd/robots/internal/surveysql/summary.sql out/
//
// Its tests check that the output says what the command printed: they
// run summary.sql, the SQL of the summary's tables, over a survey of
// testdata/corpus and compare every figure with the summary on standard
// output, and the rows with those of a --format jsonl run of the same
// input. They read the files of a sharded run as one table too, run
// redirects.sql, which follows the redirects whose target another WARC
// file of the run captured, over a survey of three such files, and hold
// the runner to what the driver gives.
//
// It is a Go module of its own, so that the robots module never depends
// on DuckDB, whose Go driver (github.com/duckdb/duckdb-go/v2) links
// DuckDB's C++ library through cgo: the runner is built only with cgo.
// The tests build the robots command in the root module of this checkout,
// with its own go.mod, so that this go.mod follows only DuckDB and needs
// no update when the root module's dependencies change. They need cgo and a C and C++ compiler (Debian's
// gcc and g++: apt-get install build-essential); without cgo they skip,
// and fail under CI=true. Run them from this directory:
//
//	go test ./...
//
// The first run downloads DuckDB's library for the platform (about 130 MB
// for linux-amd64) and links it; later runs reuse the build cache.
package surveysql
