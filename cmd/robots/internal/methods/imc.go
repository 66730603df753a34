package methods

import (
	"bytes"
	"strings"

	"github.com/fastrobots/robots"
)

// The IMC 2025 study's reading: get_all_paths_from_robots and
// get_judgement_amortized in robotstxt-parser/robots_analysis_final.py
// (added in 7288024, unchanged at 4de8f33), each verdict Google's parser's
// (check_bot_access runs the robots binary of google/robotstxt).

// imcSite is the site the probed paths are appended to. The study appends
// each path to the site's name with its trailing slash removed; its result
// files name sites by host ("www.example.com", historical-analysis/*.json),
// so a path that does not start with '/' runs into the host name, as there:
// "*.php" probes "example.com*.php", whose path Google reads as "/".
const imcSite = "example.com"

// imcDummy is the path the study probes beside the file's own, so that a
// file allowing only "/" ("Disallow: /" with "Allow: /$") is not read as
// allowing everything.
const imcDummy = "/dummy-testing-path-54321"

// imcPaths returns the paths get_all_paths_from_robots finds in body,
// without "/" (which get_judgement_amortized probes first and then skips),
// each once, and the dummy path. Lines end at '\n' only. A line holding
// "allow: " (any case, so "disallow: " too, and wherever it stands: a
// comment line counts) gives its second white-space-separated word, if it
// has one; else a line holding "allow:" gives what lies between its first
// and second ':' (empty, or with the white space and '\r' around it, when
// so written).
func imcPaths(body []byte) []string {
	seen := make(map[string]bool)
	var paths []string
	add := func(p []byte) {
		if string(p) == "/" || seen[string(p)] {
			return
		}
		seen[string(p)] = true
		paths = append(paths, string(p))
	}
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		switch {
		case containsFold(line, "allow: "):
			if w := pyFields(line, 2); len(w) == 2 {
				add(w[1])
			}
		case containsFold(line, "allow:"):
			_, rest, _ := bytes.Cut(line, []byte(":"))
			if i := bytes.IndexByte(rest, ':'); i >= 0 {
				rest = rest[:i]
			}
			add(rest)
		}
	}
	return append(paths, imcDummy)
}

// imcClassify is get_judgement_amortized: Google's verdict for "/", then
// for each path (one trailing '$' removed) until one gets the other
// verdict, which makes the file Some (partially disallowed); when none
// does, the file is None (no restrictions) if "/" is allowed and All
// (fully disallowed) if not.
func imcClassify(a *robots.Agent, paths []string) Class {
	root := a.Allowed(imcSite + "/")
	for _, p := range paths {
		if a.Allowed(imcSite+strings.TrimSuffix(p, "$")) != root {
			return Some
		}
	}
	if root {
		return None
	}
	return All
}

// rootClassify is the reading of "/" alone: None when Google's parser
// allows "/", All when it does not.
func rootClassify(a *robots.Agent) Class {
	if a.AllowedPath("/") {
		return None
	}
	return All
}
