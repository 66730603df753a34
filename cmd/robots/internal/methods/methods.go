package methods

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fastrobots/robots"
)

// Method names a published reading of robots.txt.
type Method string

// The methods, by the names the survey's columns take (class_dpi, ...).
const (
	DPI  Method = "dpi"  // Data Provenance Initiative, "Consent in Crisis"
	CC   Method = "cc"   // Common Crawl's robots.txt notebook
	IMC  Method = "imc"  // "Somesite I Used To Crawl", IMC 2025
	Root Method = "root" // "/" alone, by Google's parser
)

// Methods returns every method, in the order the docs list them.
func Methods() []Method { return []Method{DPI, CC, IMC, Root} }

// Valid reports whether m is one of Methods.
func (m Method) Valid() bool {
	switch m {
	case DPI, CC, IMC, Root:
		return true
	}
	return false
}

// ParseMethods reads a comma-separated list of method names ("dpi,cc"),
// each at most once, in the order given; an empty list is none.
func ParseMethods(list string) ([]Method, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var out []Method
	for name := range strings.SplitSeq(list, ",") {
		m := Method(strings.TrimSpace(name))
		if !m.Valid() {
			return nil, fmt.Errorf("unknown method %q (known: dpi, cc, imc, root)", string(m))
		}
		if slices.Contains(out, m) {
			return nil, fmt.Errorf("method %q named twice", string(m))
		}
		out = append(out, m)
	}
	return out, nil
}

// Class is how much of a site a method says an agent is disallowed,
// named as the survey names its classes.
type Class string

// The classes. Each method maps its own categories onto None, Some and
// All (the package documentation says how); Uncounted is a body the
// method leaves out of its counts for the agent.
const (
	None      Class = "none"
	Some      Class = "some"
	All       Class = "all"
	Uncounted Class = "uncounted"
)

// Exact is the survey's reading of the same body for the same agent,
// robots.Agent.Classify's class: "none", "some", "all" or "undecided".
func Exact(r *robots.Robots, agent string) Class {
	c, _, _ := r.Agent(agent).Classify()
	return Class(c.String())
}

// File is one robots.txt body, read by each method at most once however
// many agents are asked about. It is not safe for concurrent use.
type File struct {
	body  []byte
	r     *robots.Robots
	dpi   *dpiFile
	cc    *ccFile
	paths []string // imcPaths, nil until read
}

// NewFile returns the body as the methods read it. r is robots.Parse(body)
// when the caller has it already, or nil: imc and root then parse body
// with the default options. body must not change while the File is used.
func NewFile(body []byte, r *robots.Robots) *File {
	return &File{body: body, r: r}
}

// Classify returns the class m gives the file for agent: DPI and CC
// compare agent with the file's user-agent values as their code does
// (DPI as written, CC in any case, both the whole value); IMC and Root
// resolve it with Google's rules (robots.Robots.Agent). An m that is not
// Valid gives "".
func (f *File) Classify(m Method, agent string) Class {
	switch m {
	case DPI:
		if f.dpi == nil {
			f.dpi = parseDPI(f.body)
		}
		return f.dpi.classify(agent)
	case CC:
		if f.cc == nil {
			f.cc = parseCC(f.body)
		}
		return f.cc.classify(agent)
	case IMC:
		if f.paths == nil {
			f.paths = imcPaths(f.body)
		}
		return imcClassify(f.robots().Agent(agent), f.paths)
	case Root:
		return rootClassify(f.robots().Agent(agent))
	}
	return ""
}

func (f *File) robots() *robots.Robots {
	if f.r == nil {
		f.r = robots.Parse(f.body)
	}
	return f.r
}

// Classify returns the class m gives body for agent: NewFile(body,
// nil).Classify(m, agent).
func Classify(m Method, body []byte, agent string) Class {
	return NewFile(body, nil).Classify(m, agent)
}
