#!/bin/bash
# t0600-sdk-unit.sh: the unit tests of the SDK's pure modules
# (tests/sdk/*.test.mjs, node:test), no browser.
. "$(dirname "$0")/setup.sh"
. "$TOP/tests/node-tap.sh"
sdk_need node
set -- "$TOP"/tests/sdk/*.test.mjs
[ -f "$1" ] || { skip "no tests/sdk/*.test.mjs yet"; exit 0; }
cd "$TOP" && node_tap "$@"
