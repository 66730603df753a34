package serve

import (
	"net/http"
	"strconv"
)

// writeAnswer sends an encoded answer with status 200.
func writeAnswer(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body) // the client is gone or the write timed out: nobody to tell
}
