package capture

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httputil"
	"strings"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc/v3"
)

// payloadOf reads a response's body into c: its first cli.MaxInputBytes+1
// bytes, and its full size. The block is in memory already, at most
// surveyMaxRecordBytes. A body stored as it came on the wire, chunked or
// gzip-encoded, is decoded, as a crawler reads it; one that its writer
// decoded already but whose headers still say so (the decoding fails) is
// read as stored.
func payloadOf(resp gowarc.HttpResponseBlock, c *Capture) error {
	return readPayload(resp.ProtocolHeaderBytes(), resp.HttpHeader(), resp.PayloadBytes, c)
}

// readPayload is payloadOf of a response's raw header, parsed header and
// payload, which open gives as often as it is called.
func readPayload(raw []byte, h *http.Header, open func() (io.Reader, error), c *Capture) error {
	r, err := open()
	if err != nil {
		return err
	}
	if dec := decodeWireBody(raw, h, r); dec != nil {
		if c.Body, c.Size, err = readCounted(dec, MaxDecodedBytes); err == nil {
			return nil
		}
		// Read again as stored.
		if r, err = open(); err != nil {
			return err
		}
	}
	c.Body, c.Size, err = readCounted(r, MaxRecordBytes)
	return err
}

// MaxDecodedBytes bounds the decoded size counted of a gzip-encoded
// body: its first 500 KiB are what Google reads, and past this the size
// is not counted further (bytes says this much).
const MaxDecodedBytes = 4 * MaxRecordBytes

// decodeWireBody returns a reader of r decoded by the response's
// Transfer-Encoding (chunked) and Content-Encoding (gzip), or nil when
// the body is neither. Transfer-Encoding is read from the raw header
// lines: net/http takes it out of the parsed header.
func decodeWireBody(raw []byte, h *http.Header, r io.Reader) io.Reader {
	decoded := false
	for _, line := range bytes.Split(raw, []byte("\n")) {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(bytes.TrimSpace(k)), "Transfer-Encoding") &&
			bytes.Contains(bytes.ToLower(v), []byte("chunked")) {
			r, decoded = httputil.NewChunkedReader(r), true
			break
		}
	}
	if h == nil {
		h = &http.Header{}
	}
	switch strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding"))) {
	case "gzip", "x-gzip":
		r, decoded = &lazyGzip{r: r}, true
	}
	if !decoded {
		return nil
	}
	return r
}

// lazyGzip decompresses r, reading the gzip header at the first Read.
type lazyGzip struct {
	r  io.Reader
	zr *gzip.Reader
}

func (g *lazyGzip) Read(p []byte) (int, error) {
	if g.zr == nil {
		zr, err := gzip.NewReader(g.r)
		if err != nil {
			return 0, err
		}
		g.zr = zr
	}
	return g.zr.Read(p)
}

// readCounted reads the first cli.MaxInputBytes+1 bytes of r and counts the
// rest, up to limit bytes in all.
func readCounted(r io.Reader, limit int64) ([]byte, int64, error) {
	if br, ok := r.(*bytes.Reader); ok {
		// A body in memory: one copy of the length kept, not a growing one.
		n := int64(br.Len())
		body := make([]byte, min(n, cli.MaxInputBytes+1))
		br.Read(body)
		return body, min(n, limit), nil
	}
	body, err := readBody(r)
	if err != nil {
		return nil, 0, err
	}
	rest, err := io.CopyN(io.Discard, r, limit-int64(len(body)))
	if err == io.EOF {
		err = nil
	}
	return body, int64(len(body)) + rest, err
}
