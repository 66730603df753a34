package capture

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/nlnwa/gowarc/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streamTestWARC is a WARC file whose redirects lead to a target read
// before them, to one read after them, along a chain of two, and to a
// page that is no robots.txt; as a .warc.gz, a gzip member cut in half
// lies between them, which is resynchronised after.
func streamTestWARC(t *testing.T, gz bool) string {
	t.Helper()
	a, b := warctest.CorpusFile(t, "files/02144.txt"), warctest.CorpusFile(t, "files/02148.txt")
	recs := [][]byte{
		warctest.Record(t, gowarc.Warcinfo, "", "application/warc-fields", []byte("software: test\r\n")),
		warctest.Response(t, "https://before.example/robots.txt", 200, "", a),
		warctest.Response(t, "http://before.example/robots.txt", 301, "Location: https://before.example/robots.txt\r\n", nil),
		warctest.Response(t, "http://after.example/robots.txt", 302, "Location: https://after.example/robots.txt\r\n", nil),
		warctest.Response(t, "http://chain.example/robots.txt", 301, "Location: https://chain.example/robots.txt\r\n", nil),
		warctest.Response(t, "http://page.example/robots.txt", 301, "Location: /home\r\n", nil),
		warctest.Response(t, "https://y.example/robots.txt", 503, "", []byte("busy")),
		warctest.Response(t, "https://after.example/robots.txt", 200, "", b),
		warctest.Response(t, "https://chain.example/robots.txt", 301, "Location: https://www.chain.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://www.chain.example/robots.txt", 200, "", []byte("User-agent: *\nDisallow: /chain\n")),
		warctest.Response(t, "http://page.example/home", 200, "", []byte("<html>home</html>")),
		warctest.Response(t, "https://z.example/robots.txt", 200, "", bytes.Repeat(a, 40)),
	}
	name := "stream.warc"
	var data []byte
	if !gz {
		data = bytes.Join(recs, nil)
	} else {
		name += ".gz"
		for i, r := range recs {
			if i == 5 {
				bad := warctest.GzipMember(t, warctest.Response(t, "https://bad.example/robots.txt", 200, "", b))
				data = append(data, bad[:len(bad)/2]...)
			}
			data = append(data, warctest.GzipMember(t, r)...)
		}
	}
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, data, 0o644))
	return p
}

// readSource reads every capture of src, each as a line.
func readSource(t *testing.T, src Source) []string {
	t.Helper()
	defer src.Close()
	index := 0
	take := func() (int, bool) { index++; return index - 1, true }
	var out []string
	for {
		c, err := src.Next(take)
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		out = append(out, captureLine(c))
	}
}

// TestStreamSameCaptures: a WARC file over http(s) is read as a stream,
// in one request: from a server that ignores Range as from one that
// answers it, its captures are the local file's, every redirect followed
// to a body held as it was read, the cut gzip member resynchronised in
// the bytes kept.
func TestStreamSameCaptures(t *testing.T) {
	srv := warctest.NewServer(t)
	for _, gz := range []bool{false, true} {
		local := streamTestWARC(t, gz)
		want := readAll(t, local)
		followed := 0
		for _, line := range want {
			if strings.Contains(line, "/200/") {
				followed++
			}
		}
		require.Equal(t, 5, followed, "five redirects lead to a 200, one the middle of a chain")
		if gz {
			require.Contains(t, strings.Join(want, "\n"), "err=gzip member: ", "the cut member's row")
		}
		for _, ignore := range []bool{false, true} {
			name := fmt.Sprintf("ignore-%v-%s", ignore, filepath.Base(local))
			t.Run(name, func(t *testing.T) {
				url := srv.Add(t, name, local)
				srv.SetFaults(func(s *warctest.Server) { s.IgnoreRange, s.Ranges = ignore, nil })
				src, err := Open(url)
				require.NoError(t, err)
				assert.Equal(t, want, readSource(t, src))
				srv.Mu.Lock()
				defer srv.Mu.Unlock()
				assert.Equal(t, 1, srv.Requests["/"+name], "one request")
				assert.Equal(t, []string{""}, srv.Ranges, "no Range asked for")
			})
		}
	}
}

// TestStreamHeldBound: a stream holds at most MaxHeldBodyBytes of bodies
// for its redirects (lowered here): the robots.txt bodies no redirect
// wants yet are given up oldest first, while a body a redirect read
// before it wants is kept to the end. A redirect whose target was given
// up is read again with a Range request from a server that answers one,
// and is unresolved, redirect_error index_full, from one that does not:
// no error row.
func TestStreamHeldBound(t *testing.T) {
	const bound = 4 << 10
	filler := func(i int) []byte {
		return warctest.Response(t, fmt.Sprintf("https://f%d.example/robots.txt", i), 200, "", bytes.Repeat([]byte("Disallow: /f\n"), 40))
	}
	recs := [][]byte{
		warctest.Record(t, gowarc.Warcinfo, "", "application/warc-fields", []byte("software: test\r\n")),
		warctest.Response(t, "https://early.example/robots.txt", 200, "", []byte("User-agent: *\nDisallow: /early\n")),
		warctest.Response(t, "http://late.example/robots.txt", 301, "Location: https://late.example/robots.txt\r\n", nil),
	}
	for i := range 20 { // 20 bodies of 520 bytes: more than the bound
		recs = append(recs, filler(i))
	}
	recs = append(recs,
		warctest.Response(t, "https://late.example/robots.txt", 200, "", []byte("User-agent: *\nDisallow: /late\n")),
		warctest.Response(t, "http://early.example/robots.txt", 301, "Location: https://early.example/robots.txt\r\n", nil))
	local := warctest.Write(t, "held.warc", false, recs...)
	srv := warctest.NewServer(t)

	assert.Equal(t, int64(32<<20), int64(MaxHeldBodyBytes))
	for _, ignore := range []bool{false, true} {
		t.Run(fmt.Sprintf("ignore-%v", ignore), func(t *testing.T) {
			name := fmt.Sprintf("held-%v.warc", ignore)
			url := srv.AddData(name, mustRead(t, local))
			srv.SetFaults(func(s *warctest.Server) { s.IgnoreRange = ignore })
			src, err := openWARCSource(url, false)
			require.NoError(t, err)
			assert.Equal(t, int64(MaxHeldBodyBytes), src.heldLeft)
			src.heldLeft = bound
			index := 0
			take := func() (int, bool) { index++; return index - 1, true }
			var last, late *Capture
			for {
				c, err := src.Next(take)
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				require.NoError(t, c.Err)
				assert.GreaterOrEqual(t, src.heldLeft, int64(0))
				switch c.URL {
				case "http://early.example/robots.txt":
					last = c
				case "http://late.example/robots.txt":
					late = c
				}
			}
			src.Close()
			var held int64
			for _, h := range src.held {
				held += h.cost
			}
			assert.LessOrEqual(t, held, int64(bound))
			require.NotNil(t, late)
			assert.Equal(t, "User-agent: *\nDisallow: /late\n", string(late.Body), "the body a redirect wanted was kept")
			assert.Equal(t, 1, late.RedirectHops)
			require.NotNil(t, last)
			srv.Mu.Lock()
			requests := srv.Requests["/"+name]
			srv.Mu.Unlock()
			if ignore {
				assert.Equal(t, RedirectIndexFull, last.RedirectError)
				assert.Zero(t, last.RedirectHops)
				assert.Empty(t, last.Body)
				assert.Equal(t, 2, requests, "one read, one Range request answered whole")
			} else {
				assert.Empty(t, last.RedirectError)
				assert.Equal(t, 1, last.RedirectHops)
				assert.Equal(t, "User-agent: *\nDisallow: /early\n", string(last.Body), "read again from its offset")
				assert.Equal(t, 2, requests, "one read, one Range request for the target given up")
			}
		})
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return b
}

// TestReplayBound: a stream keeps at most MaxReplayBytes from the mark on
// (lowered here); a rewind within the bytes kept hands them on again, one
// before them starts at the first kept, and past bytes that were not kept
// the reading goes on at the live offset, its offsets counted right.
func TestReplayBound(t *testing.T) {
	assert.Equal(t, MaxRecordBytes+1<<20, MaxReplayBytes)
	data := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	tp := &replayReader{r: bytes.NewReader(data), max: 10}
	read := func(n int) string {
		b := make([]byte, n)
		m, _ := io.ReadFull(tp, b)
		return string(b[:m])
	}
	assert.Equal(t, "01234", read(5))
	tp.mark(2)
	tp.rewind(3)
	assert.Equal(t, int64(3), tp.at)
	assert.Equal(t, "34", read(2), "replayed")
	assert.Equal(t, "56789ab", read(7), "kept while within the bound")
	assert.False(t, tp.full)
	assert.Equal(t, "cdef", read(4))
	assert.True(t, tp.full, "past the bound")
	tp.rewind(0)
	assert.Equal(t, int64(2), tp.at, "from the first byte kept")
	assert.Equal(t, "23456789ab", read(10))
	assert.Equal(t, "gh", read(2), "past the bytes not kept, at the live offset")
	assert.Equal(t, int64(18), tp.at)
	tp.mark(14)
	assert.False(t, tp.full)
	assert.Equal(t, int64(18), tp.base, "keeping starts again at the live offset")
	tp.rewind(15)
	assert.Equal(t, "ij", read(2))

	// A .warc.gz whose cut member lies past the bytes kept, after members
	// more than the first reads bring: the members after it, in the bytes
	// not kept, are lost to its error row, and the source ends.
	var recs [][]byte
	for i := range 1000 {
		recs = append(recs, warctest.Response(t, fmt.Sprintf("https://f%d.example/robots.txt", i), 200, "", []byte(fmt.Sprintf("Disallow: /%d\n", i))))
	}
	var file []byte
	for _, r := range recs {
		file = append(file, warctest.GzipMember(t, r)...)
	}
	require.Greater(t, len(file), 256<<10, "past the first reads")
	bad := warctest.GzipMember(t, warctest.Response(t, "https://bad.example/robots.txt", 200, "", bytes.Repeat([]byte("Disallow: /bad\n"), 100)))
	file = append(file, bad[:len(bad)/2]...)
	for i := range 3 {
		file = append(file, warctest.GzipMember(t, warctest.Response(t, fmt.Sprintf("https://after%d.example/robots.txt", i), 200, "", []byte("Disallow: /\n")))...)
	}
	srv := warctest.NewServer(t)
	url := srv.AddData("kept.warc.gz", file)
	readKept := func(max int) []string {
		src, err := openWARCSource(url, true)
		require.NoError(t, err)
		if max > 0 {
			src.tape.max = max
		}
		return readSource(t, src)
	}
	whole := readKept(0)
	require.Len(t, whole, 1004)
	assert.Contains(t, whole[1000], "err=gzip member: ")
	assert.Contains(t, whole[1003], "https://after2.example/robots.txt")
	got := readKept(1)
	require.Len(t, got, 1001)
	assert.Equal(t, whole[:1000], got[:1000])
	assert.Contains(t, got[1000], "err=gzip member: ")
}
