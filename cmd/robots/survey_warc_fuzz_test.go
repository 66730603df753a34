package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSurveyWARC feeds the WARC source any bytes, as a plain .warc, as a
// .warc.gz, and wrapped in one gzip member as a .warc.gz: it never panics,
// it ends, every capture it hands out has a body within the limit and an
// index of its own. Every row takes some of the input's bytes, so there
// are at most as many rows as bytes, plus the one row of an input with
// skipped records and no capture.
func FuzzSurveyWARC(f *testing.F) {
	rec := []byte("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\n" +
		"WARC-Date: 2025-06-01T12:30:00Z\r\nWARC-Target-URI: https://a.example/robots.txt\r\n" +
		"Content-Type: application/http;msgtype=response\r\nContent-Length: 52\r\n\r\n" +
		"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /private\n\r\n\r\n")
	redirect := []byte("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:2>\r\n" +
		"WARC-Date: 2025-06-01T12:30:00Z\r\nWARC-Target-URI: http://a.example/robots.txt\r\n" +
		"Content-Type: application/http;msgtype=response\r\nContent-Length: 65\r\n\r\n" +
		"HTTP/1.1 301 Moved\r\nLocation: https://a.example/robots.txt\r\n\r\n\r\n\r\n")
	f.Add(rec)
	f.Add(append(append([]byte{}, redirect...), rec...))
	f.Add(append([]byte("junk\r\n"), rec...))
	f.Add(rec[:len(rec)/2])
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(rec)
	zw.Close()
	f.Add(gz.Bytes())
	f.Add(gz.Bytes()[:gz.Len()/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		var member bytes.Buffer
		zw := gzip.NewWriter(&member)
		zw.Write(data)
		zw.Close()
		for _, in := range []struct {
			name string
			data []byte
			gz   bool
		}{
			{"f.warc", data, false},
			{"f.warc.gz", data, true},
			{"m.warc.gz", member.Bytes(), true},
		} {
			p := filepath.Join(dir, in.name)
			if err := os.WriteFile(p, in.data, 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := openWARCSource(p, in.gz)
			if err != nil {
				t.Fatal(err)
			}
			index := 0
			take := func() (int, bool) { index++; return index - 1, index%2 == 0 }
			rows := 0
			for {
				c, err := src.next(take)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v", in.name, err)
				}
				rows++
				if rows > len(data)+1 {
					t.Fatalf("%s: %d rows from %d bytes: the source does not end", in.name, rows, len(data))
				}
				if len(c.body) > maxInputBytes+1 {
					t.Fatalf("%s: a body of %d bytes", in.name, len(c.body))
				}
			}
			src.close()
			if index != rows {
				t.Fatalf("%s: %d indexes taken for %d rows", in.name, index, rows)
			}
		}
	})
}
