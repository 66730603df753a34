package gzipbody

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func gzipped(t *testing.T, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

func TestBodyDecompressesOnlyWhatTheTransportLeftCompressed(t *testing.T) {
	const text = "User-agent: *\nDisallow: /\n"
	zipped := gzipped(t, text)
	for _, c := range []struct {
		name         string
		encoding     string
		uncompressed bool
		body         []byte
		want         string
		compressed   bool
	}{
		{"gzip left compressed", "gzip", false, zipped, text, true},
		{"case and space ignored", " GZip ", false, zipped, text, true},
		{"transport decompressed", "gzip", true, []byte(text), text, false},
		{"no encoding", "", false, []byte(text), text, false},
		{"another encoding", "br", false, []byte(text), text, false},
	} {
		resp := &http.Response{Header: http.Header{}, Uncompressed: c.uncompressed, Body: io.NopCloser(bytes.NewReader(c.body))}
		if c.encoding != "" {
			resp.Header.Set("Content-Encoding", c.encoding)
		}
		assert.Equal(t, c.compressed, Compressed(resp), c.name)
		got, err := io.ReadAll(Body(resp))
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, string(got), c.name)
	}
}

func TestBodyCorruptHeaderIsTheFirstReadsError(t *testing.T) {
	resp := &http.Response{Header: http.Header{"Content-Encoding": {"gzip"}}, Body: io.NopCloser(bytes.NewReader([]byte("User-agent: *\nDisallow: /\n")))}
	r := Body(resp)
	_, err := r.Read(make([]byte, 8))
	assert.ErrorIs(t, err, gzip.ErrHeader)
	_, err = r.Read(make([]byte, 8))
	assert.ErrorIs(t, err, gzip.ErrHeader, "the error stays")
}

func TestBodyWithoutBodyIsNil(t *testing.T) {
	assert.Nil(t, Body(&http.Response{Header: http.Header{"Content-Encoding": {"gzip"}}}))
}
