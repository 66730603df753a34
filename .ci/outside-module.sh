#!/usr/bin/env bash
# Uses the library as README.md's Install section says a module outside
# the repository does until the module is published: a go.mod that
# requires github.com/fastrobots/robots v0.0.0 and replaces it with this
# checkout. It builds a small program in a temporary directory, runs it and
# checks its verdicts. Modules come from the module proxy (GOFLAGS=-mod=mod
# is honoured); nothing else is reached.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

go mod init example.com/outside >/dev/null 2>&1
go mod edit -require=github.com/fastrobots/robots@v0.0.0 -replace=github.com/fastrobots/robots="$repo"
cat >main.go <<'GO'
package main

import (
	"fmt"

	"github.com/fastrobots/robots"
)

func main() {
	r := robots.Parse([]byte("User-agent: *\nDisallow: /private/\nAllow: /private/ok\n"))
	bot := r.Agent("ExampleBot")
	for _, u := range []string{"https://example.com/", "https://example.com/private/x", "https://example.com/private/ok"} {
		fmt.Println(bot.Allowed(u), u)
	}
}
GO
go mod tidy
go build -o outside .

want='true https://example.com/
false https://example.com/private/x
true https://example.com/private/ok'
got=$(./outside)
if [ "$got" != "$want" ]; then
	printf 'a module outside the repository got:\n%s\nwant:\n%s\n' "$got" "$want" >&2
	exit 1
fi
echo "ok   a module outside the repository builds against this checkout (require v0.0.0 + replace) and gets the verdicts"
