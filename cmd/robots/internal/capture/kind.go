package capture

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// A local file is read as what its first bytes say it is, whatever its
// name: "WARC/1." starts a WARC file of plain records, and a gzip member
// whose first decompressed bytes are "WARC/1." starts one of gzip
// members. A name ending in .warc or .warc.gz still makes a file a WARC
// file when its bytes do not (junk before the first record, a first
// member cut short), so that the WARC reader's error rows say what is
// wrong with it. In a directory, a file is read as a robots.txt body only
// when no file there is a WARC file: a directory of WARC files is read as
// WARC, and another file in it is an error row naming it.

// fileKind is what a file's first bytes say it is.
type fileKind int

const (
	kindPlain    fileKind = iota // a robots.txt body, as served
	kindWARC                     // a WARC file of plain records
	kindWARCGzip                 // a WARC file of gzip members
	kindGzip                     // gzip data that is no WARC file
)

// warcMagic starts every WARC record: a version line "WARC/1.0" or
// "WARC/1.1".
const warcMagic = "WARC/1."

// sniffMaxBytes bounds the bytes of a file read to say what it is: a gzip
// header (its name and comment fields), and the deflate blocks that give
// the first decompressed bytes. A gzip file of empty blocks would
// otherwise be read to its end before a byte came out.
const sniffMaxBytes = 64 << 10

// errNotWARC is the error row of a file beside WARC files that is none.
var errNotWARC = errors.New("not a WARC file, in a directory of WARC files: " +
	"a directory is read as robots.txt bodies only when it holds no WARC file")

// errGzipNotWARC is the error row of gzip data that is no WARC file:
// neither a WARC file nor a robots.txt body, which is read uncompressed.
var errGzipNotWARC = errors.New("gzip data that is no WARC file: a .tar.gz archive is an INPUT of its own, " +
	"and a robots.txt body is read uncompressed")

// sniffFile says what the local file name is, from its first bytes and,
// when they say nothing, its name. A file that cannot be opened is plain:
// reading it gives its error.
func sniffFile(name string) fileKind {
	f, err := os.Open(name)
	if err != nil {
		return kindPlain
	}
	defer f.Close()
	// The first bytes alone, read without a buffer of the file's: most
	// files of a directory are robots.txt bodies, told from them.
	var first [len(warcMagic)]byte
	n, _ := io.ReadFull(f, first[:])
	kind := kindPlain
	switch {
	case string(first[:n]) == warcMagic:
		kind = kindWARC
	case bytes.HasPrefix(first[:n], surveyGzipMagic):
		kind = sniff(bufio.NewReader(io.MultiReader(bytes.NewReader(first[:n]), io.LimitReader(f, sniffMaxBytes-int64(n)))))
	}
	switch lower := strings.ToLower(name); {
	case kind == kindWARC || kind == kindWARCGzip:
	case strings.HasSuffix(lower, ".warc.gz"):
		kind = kindWARCGzip
	case strings.HasSuffix(lower, ".warc"):
		kind = kindWARC
	}
	return kind
}

// sniff says what the bytes of r are from their start.
func sniff(r *bufio.Reader) fileKind {
	head, _ := r.Peek(len(warcMagic))
	switch {
	case bytes.HasPrefix(head, []byte(warcMagic)):
		return kindWARC
	case !bytes.HasPrefix(head, surveyGzipMagic):
		return kindPlain
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		return kindGzip
	}
	zr.Multistream(false)
	var first [len(warcMagic)]byte
	if _, err := io.ReadFull(zr, first[:]); err != nil || string(first[:]) != warcMagic {
		return kindGzip
	}
	return kindWARCGzip
}

// localKind is Kind of a local file: "warc" when it is a WARC file by its
// bytes; else ok is false, and its name says.
func localKind(input string) (kind string, ok bool) {
	if fi, err := os.Stat(input); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	switch sniffFile(input) {
	case kindWARC, kindWARCGzip:
		return "warc", true
	}
	return "", false
}
