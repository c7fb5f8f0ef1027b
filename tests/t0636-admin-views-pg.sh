#!/bin/bash
# t0636-admin-views-pg.sh: the essential flows of issue 26's views
# (t0635's tests/admin/views/log.test.mjs: a tracker sync and its rules,
# the log's filters and pages, export, seal and verify, a receipt,
# erasure, statistics, a purge by the test clock) in Chromium against the
# dashboard built for PostgreSQL over the PostgreSQL pass's database; the
# markup, role and backup tests are t0635's alone (the same JavaScript,
# and a backup is SQLite's).  It runs in the PostgreSQL pass only (CGI, no
# sanitizer); elsewhere one skip line.  Needs what t0635 needs.
. "$(dirname "$0")/setup.sh"
if ! store_is_postgres || fcgi_mode || [ -n "${SANITIZED:-}" ]; then
	skip "$(basename "$0" .sh): the PostgreSQL pass runs it (t0635 runs these views on SQLite)"
	exit 0
fi
. "$TOP/tests/node-tap.sh"
sdk_need node node_modules chromium sdk lighttpd admin
cd "$TOP" && node_tap --test-concurrency=1 \
    --test-name-pattern='^(trackers|rules|consent log|export|proof|receipt|erasure|statistics|purge|server logs)' \
    tests/admin/views/log.test.mjs
