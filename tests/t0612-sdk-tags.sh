#!/bin/bash
# t0612-sdk-tags.sh: the common tags as operators paste them (issue 29):
# tests/tags/tags.test.mjs, the vendors' snippets and stages reproduced by
# tests/tags/vendors.mjs under their real host names, held by the SDK with
# the built-in config, in headless Chromium against the real endpoints
# behind lighttpd (tests/browser/harness.mjs).  Only in the plain pass of
# make check, like t0610: the other passes change the endpoints, not this.
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/node-tap.sh"
PATH=$PATH:/usr/sbin:/sbin
sdk_need node node_modules chromium sdk lighttpd
cd "$TOP" && node_tap tests/tags/tags.test.mjs
