// Package capture reads the robots.txt captures a survey answers for:
// every source an INPUT of robots survey can name, each handing out its
// captures in order with what it knows of each (status, target URL, fetch
// time, where its redirects lead). A local file is read as what its first
// bytes say it is, whatever its name (kind.go). The sources are a
// directory of plain files or of WARC files, or one plain file
// (capture.go), a .tar.gz archive with or without a manifest
// (capture.go), a WARC file, plain or as gzip members (warc.go; frame.go
// checks every record's framing before it is read, quick.go reads plain
// records without the WARC library, responses.go follows redirects within
// the file, payload.go decodes bodies, gzip.go finds the members), and any
// of these over http(s), held to fetch's address guard on redirects
// (http.go): a WARC file there is read as a stream, never sought in, its
// gzip members resynchronised in the bytes kept (replay.go) and its
// redirects answered from the bodies held as they were read (held.go).
// state.go counts the bytes read, for progress.
//
// Every read is bounded before it is made (MaxRecordBytes, MaxMemberBytes,
// MaxDecodedBytes, MaxRedirectIndexBytes, MaxReplayBytes, MaxHeldBodyBytes,
// the manifest's limits, sniffMaxBytes), and what
// cannot be read is a Capture carrying its error, never a panic or a lost
// input. Package survey calls Open and answers the captures; capture
// decides nothing about what a robots.txt says.
package capture
