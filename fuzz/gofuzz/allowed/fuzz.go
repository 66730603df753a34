//go:build gofuzz

// Package allowed is the go-fuzz harness of Parse, Agent and Decide,
// checked by fuzzgen.CheckAllowed.
package allowed

import (
	"bytes"

	"github.com/fastrobots/robots/internal/testkit/fuzzgen"
)

// Fuzz reads its input as "agent\nURL\nrobots.txt body" and panics when an
// invariant breaks.
func Fuzz(data []byte) int {
	agent, rest, _ := bytes.Cut(data, []byte("\n"))
	rawURL, body, _ := bytes.Cut(rest, []byte("\n"))
	if err := fuzzgen.CheckAllowed(body, string(agent), string(rawURL)); err != nil {
		panic(err)
	}
	return 0
}
