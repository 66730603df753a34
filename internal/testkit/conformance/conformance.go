// Package conformance reads the conformance cases: verdicts of Google's
// reference parser, one JSON object per line, optionally gzipped.
package conformance

import (
	"bufio"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Case is one verdict: may Agent fetch URL under the robots.txt Body?
type Case struct {
	ID             string  `json:"id"`
	Area           string  `json:"area"`
	RobotsB64      *string `json:"robotstxt_b64"`
	Robots         *string `json:"robotstxt"`
	UserAgent      string  `json:"useragent"`
	URL            string  `json:"url"`
	Expected       bool    `json:"expected"`
	GoogleSpecific bool    `json:"google_specific"`
	File           string  `json:"file"`
}

// Body returns the exact robots.txt bytes of the case: robotstxt_b64 when
// present, else robotstxt.
func (c *Case) Body() ([]byte, error) {
	if c.RobotsB64 != nil {
		return base64.StdEncoding.DecodeString(*c.RobotsB64)
	}
	if c.Robots != nil {
		return []byte(*c.Robots), nil
	}
	return nil, fmt.Errorf("case %q has neither robotstxt_b64 nor robotstxt", c.ID)
}

// Open opens a JSON Lines file, unzipping it when its name ends in ".gz".
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{z, f}, nil
}

// Each calls fn with every JSON line of path decoded into a fresh T.
func Each[T any](path string, fn func(line int, v *T) error) error {
	rc, err := Open(path)
	if err != nil {
		return err
	}
	defer rc.Close()
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		v := new(T)
		if err := json.Unmarshal(sc.Bytes(), v); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if err := fn(n, v); err != nil {
			return err
		}
	}
	return sc.Err()
}
