#!/bin/sh
# gocrawl.sh runs gocrawl's own test suite with this module's replace of
# github.com/temoto/robotstxt in force and compares its failures, case by
# case, with gocrawl-baseline.txt: the failures of the same suite with the
# real temoto/robotstxt v1.1.2 on a machine without outside network (its
# TestRunner has cases that fetch outside hosts). Any other failure, or a
# baseline failure that goes away, fails the script: the baseline is then
# stale or the replace changed a verdict gocrawl tests.
set -eu
cd "$(dirname "$0")"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -count=1 -vet=off -v github.com/PuerkitoBio/gocrawl >"$out" 2>&1 || true
sed -nE 's/^[[:space:]]+[a-z_]+\.go:[0-9]+: (FAIL .*)$/\1/p; s/^[[:space:]]*--- FAIL: ([A-Za-z0-9_\/]+).*/--- FAIL: \1/p' "$out" |
  LC_ALL=C sort | diff -u gocrawl-baseline.txt - || {
  echo "gocrawl: failures differ from gocrawl-baseline.txt" >&2
  exit 1
}
grep -q '^--- PASS: TestBaseTag' "$out" || { echo "gocrawl: the suite did not run" >&2; exit 1; }
echo "gocrawl: failures are the baseline's ($(wc -l <gocrawl-baseline.txt) lines)"
