package cli

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fastrobots/robots"
)

// MaxInputBytes is how much of a robots.txt the commands use: what
// robots.Parse and lint.Lint read, Google's 500 KiB. ReadInput reads one
// byte more, to know when the input is longer, and never more, so that an
// endless input (/dev/zero, a stream) costs a bounded amount of memory.
const MaxInputBytes = robots.MaxBytes

// ReadInput reads the robots.txt named name ("-" is stdin) for the command
// cmd: at most MaxInputBytes+1 bytes. When the input is longer, it says on
// stderr where it was cut; the bytes it returns then hold one byte past
// the limit, so that Parse and Lint see that there was more.
func ReadInput(cmd, name string, stdin io.Reader, stderr io.Writer) ([]byte, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil && name == "-" {
		return nil, fmt.Errorf("%s: %w", DisplayName(name), err)
	}
	if err != nil {
		return nil, err // *os.PathError names the file
	}
	if len(data) > MaxInputBytes {
		fmt.Fprintf(stderr, "robots %s: %s: input cut at %d bytes: only the first %d bytes (500 KiB) of a robots.txt are read, as Google reads them\n",
			cmd, DisplayName(name), MaxInputBytes, MaxInputBytes)
	}
	return data, nil
}

// DisplayName is how messages and findings name an input.
func DisplayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// InputSize returns the size of the input named name ("-" is stdin),
// which ReadInput may have cut: the size of a regular file, or -1 when it
// cannot be known without reading it all (a pipe, a terminal, a device
// that never ends).
func InputSize(name string, stdin io.Reader) int64 {
	var info os.FileInfo
	var err error
	if name != "-" {
		info, err = os.Stat(name)
	} else if f, ok := stdin.(*os.File); ok {
		info, err = f.Stat()
	} else {
		return -1
	}
	if err != nil || !info.Mode().IsRegular() {
		return -1
	}
	return info.Size()
}

// OpenMaybeGzip opens the file name, read through gzip when its name ends
// in .gz: a stream of JSON Lines a command reads a line at a time, which
// the line limits bound whatever it decompresses to.
func OpenMaybeGzip(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil || !strings.HasSuffix(name, ".gz") {
		return f, err
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return gzipFile{z, f}, nil
}

// gzipFile closes the file under its gzip reader.
type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzipFile) Close() error {
	g.Reader.Close()
	return g.f.Close()
}
