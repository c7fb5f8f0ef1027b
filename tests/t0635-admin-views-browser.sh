#!/bin/bash
# t0635-admin-views-browser.sh: issue 26's views of the dashboard (trackers
# and syncs, the consent log, export, receipts, erasure, proof, statistics,
# backup) in a real headless Chromium over HTTPS on loopback, as t0630
# runs the rest: tests/admin/views/*.test.mjs over tests/admin/harness.mjs.
# Needs what t0630 needs (the page built with uplot.js, cgi-bin/,
# consentctl, the SDK, lighttpd with mod_openssl, openssl); without them,
# one skip line, and a failure when CI=true (tests/node-tap.sh).
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/node-tap.sh"
sdk_need node node_modules chromium sdk lighttpd admin
cd "$TOP" && node_tap --test-concurrency=1 tests/admin/views/*.test.mjs
