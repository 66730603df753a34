package capture

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

// FuzzSurveyWARC feeds the WARC source any bytes, as a plain .warc, as a
// .warc.gz, and wrapped in one gzip member as a .warc.gz: it never panics,
// it ends, every capture it hands out has a body within the limit and an
// index of its own. Every row takes some of the input's bytes, so there
// are at most as many rows as bytes, plus the one row of an input with
// skipped records and no capture, or with nothing at all.
//
// And whatever the bytes, a good record after them is read, and reading it
// changes none of the rows before it: a bad record costs only itself. As
// a plain file this holds unless the bytes end inside a record's header or
// block (warcSource.cut), whose length may then rightly take the good
// record in, or are a WARC file of gzip members, which its bytes make it
// whatever its name; as gzip members, always.
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
	for _, length := range []string{"-5", "1000000000000000000", "1e18", "48", "56", "200"} {
		lie := bytes.Replace(rec, []byte("Content-Length: 52"), []byte("Content-Length: "+length), 1)
		f.Add(append(append(append([]byte{}, rec...), lie...), redirect...))
	}
	f.Add([]byte{})
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(rec)
	zw.Close()
	f.Add(gz.Bytes())
	f.Add(gz.Bytes()[:gz.Len()/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		defer endsWithin(t, data)()
		dir := t.TempDir()
		member := gzipBytes(data)
		for _, in := range []struct {
			name string
			data []byte
			gz   bool
		}{
			{"f.warc", data, false},
			{"f.warc.gz", data, true},
			{"m.warc.gz", member, true},
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
				c, err := src.Next(take)
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
				if len(c.Body) > cli.MaxInputBytes+1 {
					t.Fatalf("%s: a body of %d bytes", in.name, len(c.Body))
				}
			}
			src.Close()
			if index != rows {
				t.Fatalf("%s: %d indexes taken for %d rows", in.name, index, rows)
			}
		}

		// A good record after the bytes.
		plain := data
		if len(plain) > 0 && plain[len(plain)-1] != '\n' {
			plain = append(append([]byte{}, data...), "\r\n"...)
		}
		for _, in := range []struct {
			name          string
			before, after []byte
			gz            bool
		}{
			{"s.warc", data, append(append([]byte{}, plain...), fuzzSentinel...), false},
			{"s.warc.gz", member, append(append([]byte{}, member...), gzipBytes(fuzzSentinel)...), true},
		} {
			before, cut := fuzzRows(t, dir, in.before, in.gz)
			if cut && !in.gz {
				continue
			}
			if !in.gz && sniff(bufio.NewReader(bytes.NewReader(data))) == kindWARCGzip {
				// A WARC file of gzip members by its bytes, whatever its
				// name: a plain record after them is no member.
				continue
			}
			after, _ := fuzzRows(t, dir, in.after, in.gz)
			i := slices.Index(after, fuzzSentinelRow)
			if i < 0 {
				t.Fatalf("%s: the good record after the bytes is not read:\n%s", in.name, strings.Join(after, "\n"))
			}
			after = slices.Delete(after, i, i+1)
			if !slices.Equal(before, after) {
				t.Fatalf("%s: a good record after the bytes changed the rows before it:\n%s\n\nnow:\n%s", in.name,
					strings.Join(before, "\n"), strings.Join(after, "\n"))
			}
		}
	})
}

// fuzzSentinel is the good record FuzzSurveyWARC reads after its bytes,
// and fuzzSentinelRow its row as fuzzRows writes it.
var fuzzSentinel = []byte("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://sentinel.invalid/robots.txt\r\n" +
	"Content-Type: application/http;msgtype=response\r\nContent-Length: 45\r\n\r\n" +
	"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /\n\r\n\r\n")

const fuzzSentinelRow = `"https://sentinel.invalid/robots.txt" 200 "User-agent: *\nDisallow: /\n" 26`

// fuzzRows reads data as a WARC file and returns its rows in a form that
// what follows the data does not change: an error row by its offset; a
// capture by its URL, status and body, and for a 3xx, whose redirect is
// followed at the input's end, without them; not the row of an input
// without a capture. cut is warcSource.cut.
func fuzzRows(t *testing.T, dir string, data []byte, gz bool) (rows []string, cut bool) {
	p := filepath.Join(dir, "rows.warc")
	if gz {
		p += ".gz"
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := openWARCSource(p, gz)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	index := 0
	take := func() (int, bool) { index++; return index - 1, true }
	for {
		c, err := src.Next(take)
		if err == io.EOF {
			break
		}
		switch {
		case errors.Is(c.Err, ErrNoRecord) || c.Err != nil && strings.HasPrefix(c.Err.Error(), "no robots.txt response among"):
			// The row of an input with no capture, which the good record
			// after it has.
		case c.Err != nil && c.URL == "":
			rows = append(rows, fmt.Sprintf("error at %d", c.Offset))
		case c.Status >= 300 && c.Status <= 399:
			rows = append(rows, fmt.Sprintf("%q %d at %d", c.URL, c.Status, c.Offset))
		default:
			rows = append(rows, fmt.Sprintf("%q %d %q %d", c.URL, c.Status, c.Body, c.Size))
		}
	}
	return rows, src.cut
}

func gzipBytes(p []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(p)
	zw.Close()
	return b.Bytes()
}
