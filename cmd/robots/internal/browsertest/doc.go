// Package browsertest drives the robots.txt tester of "robots serve" in a
// real headless Chromium: it types a robots.txt, agents and URLs, and
// checks the verdicts, the highlighted lines and the lint markers the page
// shows, Google's crawler tokens and the crawler table's (the list comes
// from the server), the AI-use answers beside each verdict at a desktop's
// and a phone's width, lint's notes, the highlight of a picked URL, Load and
// the states of the editor's text, the permalink, wrapped lines, its
// keyboard use, its phone-width layout and its Content-Security-Policy.
// The static tester, built by cmd/robots/web/build-static.sh and served
// by a plain file server, is checked too: its WebAssembly engine answers
// as robots serve does.
//
// It is a Go module of its own, so that the robots module never depends
// on chromedp. The tests build the robots command of the module in this
// checkout (the replace directive in go.mod) and run "robots serve" on a
// loopback port. They need Debian's chromium package (apt-get install
// chromium), or the browser the CHROMIUM variable names; without it they
// skip, and fail under CI=true. Run them from this directory:
//
//	go test ./...
//
// SCREENSHOT=../../../../docs/serve.png SCREENSHOT_PHONE=../../../../docs/serve-phone.png go test -run TestScreenshot ./...
// writes the screenshots of the page that docs/serve.md shows.
package browsertest
