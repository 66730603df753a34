package fuzzgen

import (
	"slices"

	"github.com/fastrobots/robots/compile"
)

// Format writes a parsed file back as a robots.txt: every group line,
// sitemap and other directive in file order, each as "key:value" with the
// canonical field name ("user-agent", "allow", "disallow", "sitemap") or,
// for other lines, the key as written. Reading the result in the same mode
// gives the same groups, rules, sitemaps and other lines, line numbers
// aside. The text starts with a comment line, so that no key lands where a
// byte order mark would be skipped.
//
// ok is false when a line of the result is longer than compile.MaxLineBytes:
// a canonical name can be longer than the misspelling it replaces, and the
// line would be cut where the original was not.
func Format(f *compile.File) (out []byte, ok bool) {
	type entry struct {
		line       int
		key, value string
	}
	var es []entry
	for _, g := range f.Groups() {
		for _, a := range g.Agents {
			es = append(es, entry{a.Line, "user-agent", a.Value})
		}
		for _, r := range g.Rules {
			key := "disallow"
			if r.Allow {
				key = "allow"
			}
			es = append(es, entry{r.Line, key, r.Value})
		}
	}
	for _, d := range f.Sitemaps() {
		es = append(es, entry{d.Line, "sitemap", d.Value})
	}
	for _, d := range f.Others() {
		es = append(es, entry{d.Line, d.Key, d.Value})
	}
	slices.SortStableFunc(es, func(a, b entry) int { return a.line - b.line })
	out = []byte("# formatted\n")
	ok = true
	for _, e := range es {
		if len(e.key)+1+len(e.value) > compile.MaxLineBytes {
			ok = false
		}
		out = append(out, e.key...)
		out = append(out, ':')
		out = append(out, e.value...)
		out = append(out, '\n')
	}
	return out, ok
}
