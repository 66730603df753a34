package api

import "github.com/fastrobots/robots"

// RuleString returns a rule as written, "Allow: /x" or "Disallow: /x"
// ("Disallow:" when empty), or "" for none.
func RuleString(r *robots.Rule) string {
	if r == nil {
		return ""
	}
	s := "Disallow:"
	if r.Allow {
		s = "Allow:"
	}
	if r.Value != "" {
		s += " " + r.Value
	}
	return s
}
