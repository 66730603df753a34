package bench

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// ConformanceSet is a file of verdicts of Google's reference parser
// (google/robotstxt): robots.txt bytes, a user agent, a URL and whether the
// reference allows it.
type ConformanceSet struct {
	Name string // the column's title: "spec-test", "realworld", ...
	Path string // relative to bench/
	// Shared marks the set kept beside the repository (../../shared), which
	// may be absent; the others are committed.
	Shared bool
}

// ConformanceSets returns the sets the peers are scored on: the three
// committed with the repository, then the real-world set when
// ../../shared/conformance holds it.
func ConformanceSets() []ConformanceSet {
	committed := filepath.Join("..", "testdata", "conformance")
	shared := filepath.Join("..", "..", "shared", "conformance")
	return []ConformanceSet{
		{Name: "spec-test", Path: filepath.Join(committed, "spec-test.jsonl")},
		{Name: "google-unit", Path: filepath.Join(committed, "google-unit.jsonl")},
		{Name: "generated", Path: filepath.Join(committed, "generated.jsonl.gz")},
		{Name: "realworld", Path: filepath.Join(shared, "realworld.jsonl.gz"), Shared: true},
	}
}

// Case is one reference verdict: is Agent allowed URL under Body?
type Case struct {
	ID      string
	Body    []byte
	Agent   string
	URL     string // absolute, as the reference was asked
	Allowed bool   // the reference's verdict
}

// LoadCases reads every case of set. It returns an error wrapping
// fs.ErrNotExist when the file is absent.
func LoadCases(set ConformanceSet) ([]Case, error) {
	var out []Case
	err := conformance.Each(set.Path, func(_ int, c *conformance.Case) error {
		body, err := c.Body()
		if err != nil {
			return err
		}
		out = append(out, Case{ID: c.ID, Body: body, Agent: c.UserAgent, URL: c.URL, Allowed: c.Expected})
		return nil
	})
	return out, err
}

// Absent reports whether err says that a set's file is not there.
func Absent(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// Tally is how a library's verdicts compare with the reference's on a set.
type Tally struct {
	Cases         int
	Disagreements int // verdicts that differ, panics included
	Panics        int // cases whose parse, resolve or check panicked
	Refused       int // cases whose body the library refused to parse
	// First holds the IDs of the first disagreements, for a look at why.
	First []string
}

// maxFirst is how many disagreeing case IDs a Tally keeps.
const maxFirst = 5

// Conform asks lib every case, the way a crawler does for repeated checks
// (Parse, Compile(agent), Allowed(url in the form lib takes; see InputOf)),
// and counts where it differs from the reference. A body the library
// refuses is taken as allowing everything, as a crawler that cannot read a
// robots.txt would; a panic is recovered and counted as a disagreement.
func Conform(lib Lib, cases []Case) Tally {
	t := Tally{Cases: len(cases)}
	for i := range cases {
		c := &cases[i]
		got, refused, panicked := verdict(lib, c)
		if refused {
			t.Refused++
		}
		if panicked {
			t.Panics++
		}
		if panicked || got != c.Allowed {
			t.Disagreements++
			if len(t.First) < maxFirst {
				t.First = append(t.First, c.ID)
			}
		}
	}
	return t
}

func verdict(lib Lib, c *Case) (allowed, refused, panicked bool) {
	defer func() {
		if recover() != nil {
			allowed, refused, panicked = false, false, true
		}
	}()
	p, err := lib.Parse(c.Body)
	if err != nil {
		return true, true, false
	}
	return p.Compile(c.Agent).Allowed(InputOf(lib, c.URL)), false, false
}
