#!/bin/sh
# sdk.sh: the browser SDK's size and speed beside two open-source banner
# scripts (make bench-sdk; not part of make check).  Installs the pinned
# versions below from npm into bench/out/ (not committed), then runs
# bench/sdk.mjs, which writes bench/sdk-results.md.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
VANILLA=3.1.0    # vanilla-cookieconsent
KLARO=0.7.22     # klaro
out=$top/bench/out/sdk
[ -f "$top/build/sdk/consent.js" ] || { echo "bench/sdk.sh: build/sdk/consent.js is missing (make)" >&2; exit 1; }
[ -d "$top/node_modules/playwright-core" ] || { echo "bench/sdk.sh: npm ci first (sh tools/deps.sh)" >&2; exit 1; }
mkdir -p "$out"
if [ ! -f "$out/node_modules/vanilla-cookieconsent/package.json" ] ||
   [ ! -f "$out/node_modules/klaro/package.json" ] ||
   ! grep -q "\"version\": \"$VANILLA\"" "$out/node_modules/vanilla-cookieconsent/package.json" ||
   ! grep -q "\"version\": \"$KLARO\"" "$out/node_modules/klaro/package.json"; then
	(cd "$out" && echo '{"private":true}' > package.json &&
	 npm install --no-save --no-package-lock --ignore-scripts --no-audit --no-fund --loglevel=error \
	    "vanilla-cookieconsent@$VANILLA" "klaro@$KLARO" >/dev/null)
fi
cd "$top" && BENCH_NODE_MODULES="$out/node_modules" node bench/sdk.mjs "$@"
