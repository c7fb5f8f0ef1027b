#!/bin/bash
# t0630-admin-browser.sh: the dashboard in a real headless Chromium
# (playwright-core drives /usr/bin/chromium) over HTTPS on loopback, a
# lighttpd with the shipped configs and a certificate the test makes:
# tests/admin/*.test.mjs (harness.mjs says how): flows.test.mjs the
# dashboard's flows, session.test.mjs re-authentication and the idle end
# with the program built with the test clock.  Needs the page built
# (build/admin/), cgi-bin/admin and tests/admin-clock, the SDK, lighttpd with mod_openssl
# (lighttpd-mod-openssl) and openssl; without them, one skip line, and a
# failure when CI=true (tests/node-tap.sh).
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/node-tap.sh"
sdk_need node node_modules chromium sdk lighttpd admin
cd "$TOP" && node_tap --test-concurrency=1 tests/admin/*.test.mjs
