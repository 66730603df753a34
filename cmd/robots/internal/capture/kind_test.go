package capture

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kindRecords are the records of the WARC files the tests of this file
// read: two robots.txt responses, and a redirect to the first, read from
// where the redirect leads.
func kindRecords(t *testing.T, host string) [][]byte {
	return [][]byte{
		warctest.Response(t, "https://"+host+"/robots.txt", 200, "", []byte("User-agent: GPTBot\nDisallow: /\n# "+host+"\n")),
		warctest.Response(t, "https://www."+host+"/robots.txt", 200, "", []byte("User-agent: *\nDisallow: /private\n# www."+host+"\n")),
		warctest.Response(t, "http://"+host+"/robots.txt", 301, "Location: https://"+host+"/robots.txt\r\n", nil),
	}
}

// warcBytes is a WARC file of records, plain or one gzip member a record.
func warcBytes(t *testing.T, gz bool, records [][]byte) []byte {
	var b bytes.Buffer
	for _, r := range records {
		if gz {
			b.Write(warctest.GzipMember(t, r))
		} else {
			b.Write(r)
		}
	}
	return b.Bytes()
}

// readAll reads every capture of input through Open, each as a line.
func readAll(t *testing.T, input string) []string {
	t.Helper()
	src, err := Open(input)
	require.NoError(t, err)
	defer src.Close()
	index := 0
	take := func() (int, bool) { index++; return index - 1, true }
	var out []string
	for {
		c, err := src.Next(take)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		out = append(out, captureLine(c))
	}
	return out
}

// captureLine is a capture as a comparable line, its input left out.
func captureLine(c *Capture) string {
	return fmt.Sprintf("%d file=%q %q status=%d size=%d body=%q err=%v offset=%d skipped=%d redirect=%q/%d/%d/%q",
		c.Index, c.File, c.URL, c.Status, c.Size, c.Body, c.Err, c.Offset, c.Skipped,
		c.RedirectTarget, c.RedirectStatus, c.RedirectHops, c.RedirectError)
}

// TestKindByBytes: a WARC file is read as one by its first bytes,
// whatever its name: plain records under no name of a WARC file's, gzip
// members under a .warc, a .tar.gz or no extension, plain records under a
// .warc.gz; each gives the captures the file rightly named gives. A file
// of another kind is read by its name: text is a robots.txt body, gzip
// data that is no WARC file an error row naming it, and junk named .warc
// is read as WARC, whose error rows say what is wrong with it.
func TestKindByBytes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	recs := kindRecords(t, "a.example")
	want := map[bool][]string{
		false: readAll(t, write("right.warc", warcBytes(t, false, recs))),
		true:  readAll(t, write("right.warc.gz", warcBytes(t, true, recs))),
	}
	require.Len(t, want[false], 3)
	require.Len(t, want[true], 3)
	assert.Contains(t, want[true][2], `redirect="https://a.example/robots.txt"/200/1/""`)
	for _, tt := range []struct {
		name string
		gz   bool
	}{
		{"crawl", false}, {"crawl.txt", false}, {"crawl.warc.gz", false},
		{"crawl-gz", true}, {"crawl.warc", true}, {"crawl.tar.gz", true}, {"CRAWL.GZ", true},
	} {
		p := write(tt.name, warcBytes(t, tt.gz, recs))
		kind, err := Kind(p)
		require.NoError(t, err)
		assert.Equal(t, "warc", kind, tt.name)
		assert.Equal(t, want[tt.gz], readAll(t, p), tt.name)
	}

	robots := write("robots.txt", []byte("User-agent: *\nDisallow: /\n"))
	kind, err := Kind(robots)
	require.NoError(t, err)
	assert.Equal(t, "path", kind)
	assert.Equal(t, []string{`0 file="robots.txt" "" status=200 size=26 body="User-agent: *\nDisallow: /\n" err=<nil> offset=0 skipped=0 redirect=""/0/0/""`},
		readAll(t, robots))

	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte("User-agent: *\nDisallow: /\n"))
	zw.Close()
	gzText := write("robots.txt.gz", zipped.Bytes())
	kind, err = Kind(gzText)
	require.NoError(t, err)
	assert.Equal(t, "path", kind)
	assert.Equal(t, []string{fmt.Sprintf(`0 file="robots.txt.gz" "" status=0 size=0 body="" err=%v offset=0 skipped=0 redirect=""/0/0/""`, errGzipNotWARC)},
		readAll(t, gzText))

	junk := write("junk.warc", []byte("no record here\n"))
	kind, err = Kind(junk)
	require.NoError(t, err)
	assert.Equal(t, "warc", kind)
	assert.Equal(t, []string{`0 file="" "" status=0 size=0 body="" err=15 bytes that are no WARC record offset=0 skipped=0 redirect=""/0/0/""`},
		readAll(t, junk))
}

// TestDirectoryOfWARC: a directory holding WARC files is read as WARC,
// each file whatever its name, in lexical order, its captures naming the
// file they came from, its redirects followed within it; a file beside
// them that is no WARC file is an error row naming it, not a robots.txt
// body. A directory of robots.txt bodies holding gzip data that is no
// WARC file reads the bodies, and the gzip file is an error row.
func TestDirectoryOfWARC(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"a.warc.gz":  warcBytes(t, true, kindRecords(t, "a.example")),
		"b":          warcBytes(t, true, kindRecords(t, "b.example")),
		"sub/c.warc": warcBytes(t, false, kindRecords(t, "c.example")),
		"README.md":  []byte("Crawl of June 2025.\n"),
	}
	for name, data := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	var want []string
	index := 0
	for _, name := range []string{"README.md", "a.warc.gz", "b", "sub/c.warc"} {
		if name == "README.md" {
			want = append(want, fmt.Sprintf(`%d file="README.md" "" status=0 size=0 body="" err=%v offset=0 skipped=0 redirect=""/0/0/""`, index, errNotWARC))
			index++
			continue
		}
		p := filepath.Join(t.TempDir(), filepath.Base(name))
		require.NoError(t, os.WriteFile(p, files[name], 0o644))
		for _, line := range readAll(t, p) {
			// The file's own captures, numbered on from those before and
			// naming the file.
			var i int
			_, err := fmt.Sscanf(line, "%d ", &i)
			require.NoError(t, err)
			_, rest, _ := strings.Cut(line, ` file="" `)
			want = append(want, fmt.Sprintf("%d file=%q %s", index+i, name, rest))
		}
		index += 3
	}
	got := readAll(t, dir)
	assert.Equal(t, want, got)
	for _, line := range got {
		assert.NotContains(t, line, "WARC/1.", "no WARC file is read as a body")
		assert.NotContains(t, line, `\x1f\x8b`, "no gzip file is read as a body")
	}
	require.Len(t, got, 10)
	assert.Contains(t, got[3], `redirect="https://a.example/robots.txt"/200/1/""`, "a redirect is followed within its file")

	plain := t.TempDir()
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte("User-agent: *\nDisallow: /\n"))
	zw.Close()
	require.NoError(t, os.WriteFile(filepath.Join(plain, "a.txt"), []byte("User-agent: *\nDisallow: /a\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(plain, "b.txt.gz"), zipped.Bytes(), 0o644))
	assert.Equal(t, []string{
		`0 file="a.txt" "" status=200 size=27 body="User-agent: *\nDisallow: /a\n" err=<nil> offset=0 skipped=0 redirect=""/0/0/""`,
		fmt.Sprintf(`1 file="b.txt.gz" "" status=0 size=0 body="" err=%v offset=0 skipped=0 redirect=""/0/0/""`, errGzipNotWARC),
	}, readAll(t, plain))
}

// TestSniffBound: what a file is, is told from at most sniffMaxBytes of
// it: a gzip member whose first decompressed bytes come after more empty
// deflate blocks than that is gzip data that is no WARC file, and one
// whose come before is a WARC file.
func TestSniffBound(t *testing.T) {
	member := func(emptyBlocks int) []byte {
		payload := []byte("WARC/1.1\r\n")
		b := []byte{0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff}
		for range emptyBlocks {
			b = append(b, 0x00, 0x00, 0x00, 0xff, 0xff) // a stored block, not final, of no bytes
		}
		b = append(b, 0x01) // the final stored block
		b = binary.LittleEndian.AppendUint16(b, uint16(len(payload)))
		b = binary.LittleEndian.AppendUint16(b, ^uint16(len(payload)))
		b = append(b, payload...)
		b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(payload))
		return binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		blocks int
		want   fileKind
	}{
		{0, kindWARCGzip},
		{(sniffMaxBytes - 64) / 5, kindWARCGzip},
		{sniffMaxBytes / 5, kindGzip},
		{10 * sniffMaxBytes / 5, kindGzip},
	} {
		data := member(tt.blocks)
		zr, err := gzip.NewReader(bytes.NewReader(data))
		require.NoError(t, err)
		got, err := io.ReadAll(zr)
		require.NoError(t, err, "the member is sound")
		require.Equal(t, "WARC/1.1\r\n", string(got))
		p := filepath.Join(dir, fmt.Sprintf("m%d", tt.blocks))
		require.NoError(t, os.WriteFile(p, data, 0o644))
		assert.Equal(t, tt.want, sniffFile(p), "%d empty blocks, %d bytes", tt.blocks, len(data))
	}
}
