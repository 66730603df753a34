// Package runtime finds the part of a URL that robots.txt rules match: its
// path, parameters and query ("/a;p?q=1"), with the scheme, authority and
// fragment removed and nothing re-encoded, as RFC 9309 section 2.2.2 and
// Google's reference parser read it. It never fails: a string that is not
// a URL yields "/".
//
// A check reads the part in place from RootedStart when it starts with
// '/', and otherwise in the pieces PathParts or URLParts give, without
// building it.
//
// This package is a layer of the engine beneath package robots, which,
// with the module's internal packages, is its only importer; its API may
// change between versions.
package runtime
