#!/usr/bin/env bash
# build-static.sh OUTDIR: writes the robots.txt tester as static files
# into OUTDIR, to host on any plain HTTP file server, with no robots serve
# behind it: the page's API requests are answered in the browser by
# robots.wasm, the engine built for GOOS=js GOARCH=wasm (cmd/robots/wasm),
# loaded by wasm.js with Go's wasm_exec.js. Load needs robots serve and is
# refused. Serve OUTDIR at the root of its host (the page asks for
# /example.txt); a page opened from file:// cannot fetch robots.wasm.
# Prints the size of robots.wasm, raw and gzipped (gzip -9).
set -euo pipefail
out=${1:?usage: build-static.sh OUTDIR}
web=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

(cd "$web/.." && GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$out/robots.wasm" ./wasm)

# Go 1.24 moved wasm_exec.js from misc/wasm to lib/wasm.
goroot=$(go env GOROOT)
for f in "$goroot/lib/wasm/wasm_exec.js" "$goroot/misc/wasm/wasm_exec.js"; do
  if [ -f "$f" ]; then cp "$f" "$out/wasm_exec.js"; break; fi
done
[ -f "$out/wasm_exec.js" ] || { echo "build-static.sh: wasm_exec.js not found under $goroot" >&2; exit 1; }

cp "$web/app.js" "$web/style.css" "$web/favicon.svg" "$web/wasm.js" "$out/"
cp "$web/example.txt" "$out/example.txt"

# index.html: the engine's scripts before the page's, and the policy robots
# serve sends as a header, as a meta tag, allowing WebAssembly to compile
# ('wasm-unsafe-eval'; frame-ancestors has no effect in a meta tag).
app='<script src="/app.js" defer></script>'
grep -qF "$app" "$web/index.html" || { echo "build-static.sh: index.html has no $app line" >&2; exit 1; }
csp="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; base-uri 'none'; form-action 'none'; object-src 'none'"
awk -v app="$app" -v csp="$csp" '
  /<meta charset=/ { print; print "<meta http-equiv=\"Content-Security-Policy\" content=\"" csp "\">"; next }
  index($0, app) { print "<script src=\"/wasm_exec.js\" defer></script>"; print "<script src=\"/wasm.js\" defer></script>" }
  { print }
' "$web/index.html" > "$out/index.html"

raw=$(wc -c < "$out/robots.wasm")
gz=$(gzip -9 -c "$out/robots.wasm" | wc -c)
echo "build-static.sh: wrote $out; robots.wasm is $raw bytes, $gz gzipped (gzip -9)"
