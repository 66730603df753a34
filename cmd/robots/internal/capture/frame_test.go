package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFrameRecord holds frameRecord to what it is to decide: a record is
// read when its block is followed by its end of record, or by line breaks
// (at most surveyRecordLookahead of them) and then the next record or the
// end; anything else past its block, a header without an end or a
// Content-Length that is no length refuses it.
func TestFrameRecord(t *testing.T) {
	head := func(length string) string {
		return "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: " + length + "\r\n\r\n"
	}
	rec := head("5") + "hello"
	next := head("0")
	for _, tt := range []struct {
		name       string
		b          string
		end        bool
		size, skip int // when read
		err        string
		cut        bool
	}{
		{name: "end of record, then the end", b: rec + "\r\n\r\n", end: true, size: len(rec) + 4, skip: len(rec) + 4},
		{name: "end of record, then junk", b: rec + "\r\n\r\nnot a record" + strings.Repeat(".", 100), size: len(rec) + 4, skip: len(rec) + 4},
		{name: "no end of record, the next record", b: rec + next + strings.Repeat(".", 100), size: len(rec), skip: len(rec)},
		{name: "a short end of record, the next record", b: rec + "\r\n" + next + strings.Repeat(".", 100), size: len(rec) + 2, skip: len(rec) + 2},
		{name: "line breaks to the lookahead, the next record", b: rec + strings.Repeat("\n", surveyRecordLookahead) + next, end: true, size: len(rec) + 4, skip: len(rec) + surveyRecordLookahead},
		{name: "line breaks past the lookahead", b: rec + strings.Repeat("\n", surveyRecordLookahead+1) + next, end: true, err: "not followed by the end of the record"},
		{name: "part of the end of record at the end", b: rec + "\r\n", end: true, size: len(rec) + 2, skip: len(rec) + 2},
		{name: "nothing past the block at the end", b: rec, end: true, size: len(rec), skip: len(rec)},
		{name: "a block four bytes short", b: head("1") + "hello\r\n\r\n" + next, end: true, err: "Content-Length 1: the block is not followed"},
		{name: "a block that reaches into the next record", b: head("11") + "hello\r\n\r\n" + next, end: true, err: "Content-Length 11: the block is not followed"},
		// Four long, the end of record taken into the block with the next
		// record after it: read as a record that left its end out.
		{name: "a block four bytes long, the next record", b: head("9") + "hello\r\n\r\n" + next, end: true, size: len(head("9")) + 9, skip: len(head("9")) + 9},
		{name: "a block past the end", b: head("50") + "hello\r\n\r\n", end: true, err: "Content-Length 50, block of 9 bytes", cut: true},
		{name: "the next record's first line cut at the end", b: rec + "WARC/1.1", end: true, err: "not followed", cut: true},
		{name: "a negative length", b: head("-5") + "hello\r\n\r\n", end: true, err: `Content-Length "-5" is no length`},
		{name: "a length that is no number", b: head("1e18") + "hello\r\n\r\n", end: true, err: `Content-Length "1e18" is no length`},
		{name: "a length past every bound", b: head("99999999999999999999999") + "hello\r\n\r\n", end: true, err: ErrRecordTooLong.Error()},
		{name: "a length past the record bound", b: head(fmt.Sprint(MaxRecordBytes)) + "hello\r\n\r\n", end: true, err: ErrRecordTooLong.Error()},
		{name: "no Content-Length", b: "WARC/1.1\r\nWARC-Type: resource\r\n\r\nhello\r\n\r\n", end: true, err: "without a Content-Length"},
		{name: "a folded Content-Length", b: "WARC/1.1\r\nContent-Length: 5\r\n 0\r\n\r\nhello\r\n\r\n", end: true, err: "continued on a second line"},
		{name: "the first Content-Length counts", b: "WARC/1.1\r\ncontent-length : 5\r\nContent-Length: 7\r\n\r\nhello\r\n\r\n", end: true, size: 60, skip: 60},
		{name: "a header cut by another record", b: "WARC/1.1\r\nWARC-Type: resource\r\n" + next, end: true, err: "cut by another record's first line"},
		{name: "a header without its end", b: "WARC/1.1\r\nWARC-Type: resource\r\n", end: true, err: "without its end", cut: true},
		{name: "LF lines", b: "WARC/1.0\nContent-Length: 5\n\nhello\r\n\r\n", end: true, size: 37, skip: 37},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := frameRecord([]byte(tt.b), tt.end)
			require.Zero(t, f.need)
			assert.Equal(t, tt.cut, f.cut)
			if tt.err != "" {
				require.Error(t, f.err)
				assert.Contains(t, f.err.Error(), tt.err)
				return
			}
			require.NoError(t, f.err)
			assert.Equal(t, tt.size, f.size, "the bytes the readers are given")
			assert.Equal(t, tt.skip, f.next, "where reading goes on")
		})
	}

	// Before the end, a frame asks for what it needs: the header's end,
	// the end of record, the lookahead.
	for _, b := range []string{"WARC/1.1\r\nWARC-Type: resource\r\n", head("5") + "hel", rec + "\r\n", rec + "\n\n" + "WARC/1.1\r\n"} {
		f := frameRecord([]byte(b), false)
		assert.Greater(t, f.need, len(b), "%q", b)
		assert.NoError(t, f.err)
	}
	// A header longer than surveyMaxRecordBytes is refused once that many
	// bytes are read, whatever follows.
	long := []byte("WARC/1.1\r\nX: " + strings.Repeat("x", MaxRecordBytes))
	f := frameRecord(long, false)
	assert.ErrorIs(t, f.err, ErrRecordTooLong)
}

// TestNextRecordStart: the next record starts at a line start, with
// "WARC/1.0" or "WARC/1.1" and a line break; one cut by the end of the
// bytes is reported short, to be looked at again.
func TestNextRecordStart(t *testing.T) {
	for _, tt := range []struct {
		b     string
		i     int
		short bool
	}{
		{"junk\nWARC/1.1\r\nX", 5, false},
		{"junk\r\nWARC/1.0\nX", 6, false},
		{"WARC/1.1\r\nWARC/1.1\r\n", 10, false},
		{"junk WARC/1.1\r\nX\n", -1, false},
		{"junk\nWARC/1.2\r\nX\n", -1, false},
		{"junk\nWARC/1.1 \r\nX\n", -1, false},
		{"junk\nWARC/1.", 5, true},
		{"junk\nWAR", 5, true},
		{"junk\nWARC/1.1\r", 5, true},
		{"junk\nWARC/1.1", 5, true},
		{"junk\nWARC/1.1x", -1, false},
	} {
		i, short := nextRecordStart([]byte(tt.b))
		assert.Equal(t, tt.i, i, "%q", tt.b)
		assert.Equal(t, tt.short, short, "%q", tt.b)
	}
}

// TestSurveyWARCWindowBound: a plain file's window holds a record as long
// as surveyMaxRecordBytes and the bytes that confirm it, and is never
// larger than surveyWindowBytes; records around the long one are read.
func TestSurveyWARCWindowBound(t *testing.T) {
	body := bytes.Repeat([]byte("Disallow: /x\n"), (MaxRecordBytes-1024)/13)
	big := warctest.Response(t, "https://big.example/robots.txt", 200, "", body)
	require.LessOrEqual(t, len(big), MaxRecordBytes)
	small := warctest.Response(t, "https://small.example/robots.txt", 200, "", []byte("User-agent: *\nDisallow: /\n"))
	p := warctest.Write(t, "big.warc", false, small, big, small, big, small)
	src, err := openWARCSource(p, false)
	require.NoError(t, err)
	defer src.Close()
	index := 0
	take := func() (int, bool) { index++; return index - 1, true }
	var got []string
	for {
		c, err := src.Next(take)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		require.NoError(t, c.Err)
		got = append(got, c.URL)
		assert.LessOrEqual(t, cap(src.win.buf), surveyWindowBytes)
	}
	assert.Equal(t, []string{"https://small.example/robots.txt", "https://big.example/robots.txt", "https://small.example/robots.txt",
		"https://big.example/robots.txt", "https://small.example/robots.txt"}, got)
	assert.Greater(t, cap(src.win.buf), MaxRecordBytes, "the window grew to hold the long record")
}

// BenchmarkSurveyWARCLyingLengths reads a plain WARC file of 100,000
// responses of one size, each of which claims a block that ends five
// bytes into the block of a record about 16 MiB on: every record is
// framed against 16 MiB of the file and refused, one error row each.
// Framing stays linear in the file's bytes.
func BenchmarkSurveyWARCLyingLengths(b *testing.B) {
	const n = 100_000
	head := func(i, length int) string {
		return fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://h%08d.example/robots.txt\r\n"+
			"Content-Type: application/http;msgtype=response\r\nContent-Length: %08d\r\n\r\n", i, length)
	}
	block := "HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /\n"
	size := len(head(0, 0)) + len(block) + 4
	length := (MaxRecordBytes-size)/size*size + 5
	var data bytes.Buffer
	for i := range n {
		data.WriteString(head(i, length) + block + "\r\n\r\n")
	}
	p := filepath.Join(b.TempDir(), "lying.warc")
	if err := os.WriteFile(p, data.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(data.Len()))
	for b.Loop() {
		src, err := openWARCSource(p, false)
		if err != nil {
			b.Fatal(err)
		}
		index := 0
		take := func() (int, bool) { index++; return index - 1, true }
		rows := 0
		for {
			c, err := src.Next(take)
			if err != nil {
				break
			}
			if c.Err == nil {
				b.Fatalf("a capture at %d", c.Offset)
			}
			rows++
		}
		src.Close()
		if rows != n {
			b.Fatalf("%d error rows, want %d", rows, n)
		}
	}
}
