#!/bin/bash
# t0620-report-browser.sh: the page of `consentctl report` in a real headless
# Chromium (playwright-core drives /usr/bin/chromium): tests/report/*.test.mjs.
# Needs the page built into consentctl (esbuild and node_modules/uplot at
# build time); without it, or without node or Chromium, one skip line, and
# a failure when CI=true (tests/node-tap.sh).
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/node-tap.sh"
sdk_need node node_modules chromium report
cd "$TOP" && node_tap --test-concurrency=1 tests/report/*.test.mjs
