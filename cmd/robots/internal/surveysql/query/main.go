//go:build cgo

// Command query runs SQL over the Parquet output of robots survey with
// DuckDB's library linked in through cgo, where no duckdb command is
// installed: the named queries of summary.sql or redirects.sql, or a
// query of one's own, printed as aligned columns or CSV.
//
//	go run ./cmd/robots/internal/surveysql/query -f cmd/robots/internal/surveysql/summary.sql out/
//	go run ./cmd/robots/internal/surveysql/query -csv -e 'SELECT agent, count(*) FROM agents GROUP BY agent' out/
//
// It needs cgo and a C and C++ compiler (Debian: apt-get install
// build-essential); the first build downloads DuckDB's library for the
// platform. surveysql.Main says what its flags do.
package main

import (
	"os"

	"github.com/fastrobots/robots/cmd/robots/internal/surveysql"
)

func main() {
	os.Exit(surveysql.Main(os.Args[1:], os.Stdout, os.Stderr))
}
