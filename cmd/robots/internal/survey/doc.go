// Package survey is robots survey: it reads captures from its INPUTs
// (package capture), answers each for every agent of the run as Google's
// crawler reads it (rows.go: status policy, lint counts, per agent the
// group that applies and its class over every path), writes the rows as
// Parquet or JSON Lines (parquet.go, survey.go), and summarises them in
// text and in an HTML page (summary.go, html.go). survey.go holds the
// command (Run) and the pipeline: readers, workers and one writer, with
// queues bounded in captures and bytes, and shards of a run split by
// input or by capture.
package survey
