#!/bin/sh
# gocrawl.sh runs gocrawl's own test suite with this module's replace of
# github.com/temoto/robotstxt in force and compares its failures, case by
# case, with gocrawl-baseline.txt: the failures of the same suite with the
# real temoto/robotstxt v1.1.2 on a machine without outside network (its
# TestRunner has cases that fetch outside hosts). A failure not in the
# baseline fails the script: the replace changed a verdict gocrawl tests.
# Baseline failures that pass (with outside network) are listed, not fatal.
set -eu
cd "$(dirname "$0")"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -count=1 -vet=off -v github.com/PuerkitoBio/gocrawl >"$out" 2>&1 || true
sed -nE 's/^[[:space:]]+[a-z_]+\.go:[0-9]+: (FAIL .*)$/\1/p; s/^[[:space:]]*--- FAIL: ([A-Za-z0-9_\/]+).*/--- FAIL: \1/p' "$out" |
  LC_ALL=C sort -u >"$out.fail"
trap 'rm -f "$out" "$out.fail"' EXIT
if LC_ALL=C comm -13 gocrawl-baseline.txt "$out.fail" | grep .; then
  echo "gocrawl: failures above are not in gocrawl-baseline.txt" >&2
  exit 1
fi
LC_ALL=C comm -23 gocrawl-baseline.txt "$out.fail" | sed 's/^/gocrawl: baseline failure now passes: /'
if grep -q '^panic:' "$out"; then echo "gocrawl: the suite panicked" >&2; exit 1; fi
grep -q '^--- PASS: TestBaseTag' "$out" || { echo "gocrawl: the suite did not run" >&2; exit 1; }
echo "gocrawl: no failure outside the baseline ($(wc -l <gocrawl-baseline.txt) lines)"
