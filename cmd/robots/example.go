package main

import _ "embed"

// exampleRobots is the robots.txt check reads when no -f is given: Google's
// documented example with a few more rules showing wildcards, end anchors
// and precedence.
//
//go:embed example.txt
var exampleRobots []byte
