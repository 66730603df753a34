// Package serve is robots serve: the robots.txt tester's page and the JSON
// API (check, explain, lint, fetch) over HTTP, for browsers and for
// crawlers in any language. The answers are package api's, which the
// page's WebAssembly engine shares; this package is the server around
// them: the connection table that no crowd of sources can fill to lock a
// newcomer out (conns.go), the admission of each request by the work the
// engine will do for it, counted from the parsed robots.txt (admit.go),
// bodies and fetched robots.txt files held within one memory bound
// (request.go, fetch.go), fetches held to public addresses (guard.go),
// answers written within their time (answer.go), and the page (web.go).
// Run is the command; Handler is the same server for a program's own
// http.Server.
package serve
