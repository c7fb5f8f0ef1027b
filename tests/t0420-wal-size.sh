#!/bin/bash
# t0420-wal-size.sh: the WAL stays small under a stream of writes (store.c,
# WAL_CHECKPOINT_FRAMES), since every CGI process reads all of it on open.
# PostgreSQL keeps its own log: there only the writes and reads are checked.
. "$(dirname "$0")/setup.sh"

site s1
# 60 consents add about 300 frames (1.2 MiB) when nothing truncates the WAL;
# with a checkpoint every 64 frames (about 260 KiB) it never holds more than
# a dozen writes.
i=0
bad=0
while [ $i -lt 60 ]; do
	cgi POST consent "" "{\"site_key\":\"s1\",\"anon_id\":\"wal-$i\",\"categories\":{\"necessary\":true},\"event_type\":\"initial\"}"
	[ "$(cat "$T/status")" = 201 ] || bad=$((bad + 1))
	i=$((i + 1))
done
check test "$bad" = 0 "60 consents stored"
if store_is_postgres; then
	skip "WAL after 60 consents is under 384 KiB: SQLite only (the -wal file)"
else
	wal=$(stat -c %s "$CONSENT_DB-wal" 2>/dev/null || echo 0)
	check test "$wal" -lt 393216 "WAL after 60 consents is under 384 KiB ($wal bytes)"
fi
check test "$(ctl consent export s1 | wc -l | tr -d ' ')" = 60 "every entry readable after the checkpoints"
