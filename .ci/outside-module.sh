#!/usr/bin/env bash
# Uses the three modules of this repository as README.md's Install section
# says a module outside the repository does until they are published: a
# go.mod that requires github.com/fastrobots/robots,
# github.com/fastrobots/robots/fetch/redisstore and github.com/temoto/robotstxt
# and replaces each with its directory in this checkout, then go mod tidy.
# It builds one program that imports all three in a temporary directory,
# runs it and checks its output, and checks that go mod tidy added exactly
# the requirements the README lists. Modules come from the module proxy
# (GOFLAGS=-mod=mod is honoured); nothing else is reached: the program makes
# a redisstore.Store without connecting.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

go mod init example.com/outside >/dev/null 2>&1
# The README's lines, with ../robots replaced by the checkout's path.
go mod edit \
	-require=github.com/fastrobots/robots@v0.0.0 \
	-replace=github.com/fastrobots/robots="$repo" \
	-require=github.com/fastrobots/robots/fetch/redisstore@v0.0.0 \
	-replace=github.com/fastrobots/robots/fetch/redisstore="$repo/fetch/redisstore" \
	-require=github.com/temoto/robotstxt@v1.1.2 \
	-replace=github.com/temoto/robotstxt="$repo/compat/temoto"
cat >main.go <<'GO'
package main

import (
	"fmt"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/fetch/redisstore"
	"github.com/redis/go-redis/v9"
	"github.com/temoto/robotstxt"
)

func main() {
	body := "User-agent: *\nDisallow: /private/\nAllow: /private/ok\n"
	bot := robots.Parse([]byte(body)).Agent("ExampleBot")
	for _, u := range []string{"https://example.com/", "https://example.com/private/x", "https://example.com/private/ok"} {
		fmt.Println(bot.Allowed(u), u)
	}
	// compat/temoto under temoto's import path: Google's verdicts.
	data, err := robotstxt.FromString(body)
	fmt.Println(err == nil && data.TestAgent("/private/ok", "ExampleBot"), "temoto /private/ok")
	// redisstore: a fleet's shared store, made without connecting.
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	var store fetch.Store = redisstore.New(rdb, redisstore.Options{})
	fmt.Println(store != nil, "redisstore")
}
GO
go mod tidy
go build -o outside .

want='true https://example.com/
false https://example.com/private/x
true https://example.com/private/ok
true temoto /private/ok
true redisstore'
got=$(./outside)
if [ "$got" != "$want" ]; then
	printf 'a module outside the repository got:\n%s\nwant:\n%s\n' "$got" "$want" >&2
	exit 1
fi

# Every requirement go mod tidy marked indirect is named in the README's
# Install section: a change in them must change the README too.
for m in $(go mod edit -json | python3 -c 'import json,sys; print("\n".join(r["Path"] for r in json.load(sys.stdin)["Require"] if r.get("Indirect")))'); do
	if ! grep -q "\`$m\`" "$repo/README.md"; then
		echo "go mod tidy added $m, which README.md's Install section does not name" >&2
		exit 1
	fi
done
# The command's dependencies (WARC, Parquet, compression) live in its own
# module: none may reach a program that requires the engine's.
for m in github.com/nlnwa/gowarc github.com/parquet-go/parquet-go github.com/klauspost/compress; do
	if go mod graph | grep -q "$m"; then
		echo "go mod graph of a module outside the repository holds $m, a dependency of the command alone" >&2
		exit 1
	fi
done
echo "ok   a module outside the repository builds against this checkout's three modules (require v0.0.0 + replace) and gets the verdicts"
