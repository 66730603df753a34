// Package runtime splits a URL into the pieces of the part robots.txt rules
// match: its path, parameters and query ("/a;p?q=1"), the scheme,
// authority and fragment removed and nothing re-encoded, as RFC 9309
// section 2.2.2 and Google's reference parser both read it. It never
// fails: a string that is not a URL yields "/".
//
// The pieces are handed to a compiled rule set as they are, one after the
// other (compile.RuleSet's Allowed, AllowedBeforeFragment and Decide),
// which applies the file's dialect and chooses the tier: RootedStart finds
// a path that starts with '/', which a check reads in place up to its '#';
// PathParts gives the others, with the '/' Google writes in front of a
// path that starts with '?' or ';'; URLParts escapes a *url.URL's path on
// the caller's stack.
//
// This package is a layer of the engine beneath package robots, which,
// with the module's internal packages, is the only one to import it; its
// API may change between versions.
package runtime
