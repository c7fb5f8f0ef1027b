#!/bin/bash
# t0615-sdk-engines.sh: the SDK in Chromium, Firefox ESR and WebKit (issue
# 30): tests/engines/engines.test.mjs, each test written once over
# tests/engines/driver.mjs and run in every engine (one after the other,
# one lighttpd and one tracker server for all), against the plain build.
# Only in the plain pass of make check: the other passes change the
# endpoints, which t0610 tests there, not the browsers.
# serial: WebKit's tests that act as the page is left (keepalive, the GPC
# and Consent Mode flows after it, the embeds) failed in make check with
# another file running beside them, and pass alone.
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/node-tap.sh"
PATH=$PATH:/usr/sbin:/sbin
cd "$TOP" || exit 1
sdk_need node node_modules chromium sdk lighttpd engines
node_tap tests/engines/engines.test.mjs
