// Package runtime turns the URLs a crawler holds into the strings rules are
// matched against, and runs the matching.
//
// A rule matches the path, parameters and query of a URL ("/a;p?q=1"): the
// scheme, authority and fragment are removed and nothing is re-encoded, as
// RFC 9309 section 2.2.2 and Google's reference parser both do. Path
// extraction never fails: a string that is not a URL yields "/".
package runtime
