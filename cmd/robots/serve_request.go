package main

import (
	"io"
	"mime"
	"net/http"

	"github.com/fastrobots/robots"
)

// decodeJSON reads the body of r, a JSON object, into dst: at most
// maxRequestBytes, no field dst lacks, no key twice, nothing after the
// object. The body is read whole first, so that the duplicate keys
// encoding/json lets through can be looked for in it. It returns the
// number of bytes read.
func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) (int, *apiError) {
	if err := checkJSONContentType(r.Header.Get("Content-Type")); err != nil {
		return 0, err
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	if err != nil {
		return len(body), jsonError(err)
	}
	return len(body), decodeBody(body, dst)
}

// checkJSONContentType refuses a body that is not declared JSON. A page
// of another site can post a form or text/plain to the server without the
// browser asking the server first; it cannot post JSON so.
func checkJSONContentType(ct string) *apiError {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return &apiError{Status: http.StatusUnsupportedMediaType, Msg: "the request body must be JSON, sent with Content-Type: application/json"}
	}
	return nil
}

// robotsURLOf returns the URL of the robots.txt that governs pageURL, or
// why it cannot be fetched.
func robotsURLOf(pageURL string) (string, *apiError) {
	if err := checkFetchURL(pageURL); err != nil {
		return "", badRequest("%s", shortenEcho(err.Error(), pageURL))
	}
	u, err := robots.URLFor(pageURL)
	if err != nil {
		return "", badRequest("%s", shortenEcho(err.Error(), pageURL))
	}
	return u, nil
}
