// Package web is the robots.txt tester's page, which robots serve serves
// at / and build-static.sh copies for a server of static files, and the
// example robots.txt the page loads and check and explain read when given
// no file. The files are built into the binary: the page loads nothing
// from elsewhere.
package web

import (
	"embed"
	"io/fs"
)

// files are the page and its assets.
//
//go:embed index.html app.js style.css favicon.svg wasm.js
var files embed.FS

// Files returns the page's files, by their names in this folder.
func Files() fs.FS { return files }

// Example is the robots.txt check and explain read when no -f is given:
// Google's documented example with a few more rules showing wildcards, end
// anchors and precedence. robots example prints it.
//
//go:embed example.txt
var Example []byte
