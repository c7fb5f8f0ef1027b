#!/bin/bash
# t0610-sdk-browser.sh: the SDK in a real headless Chromium (playwright-core
# drives /usr/bin/chromium) against the real endpoints behind lighttpd with
# the shipped lighttpd/consent.conf: tests/browser/*.test.mjs, one file at a
# time, each with its own server and database (tests/browser/harness.mjs).
# BUILD chooses the CGI programs and consentctl (plain or ASan+UBSan).
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/node-tap.sh"
PATH=$PATH:/usr/sbin:/sbin
sdk_need node node_modules chromium sdk lighttpd
cd "$TOP" && node_tap --test-concurrency=1 tests/browser/*.test.mjs
