#!/bin/bash
# t0132-erase.sh: consentctl consent erase (issue 11): a data subject's
# entries are removed, no byte of the visitor's hash is left in the database
# files (PostgreSQL: in a pg_dump of the database), the erasure is recorded
# (time and count only), and every seal still verifies.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site er
site er2
hash() { printf '%s' "$1" | sha256sum | cut -c1-64; }
post() { # SITE ANON_ID
	cgi POST consent "" "{\"site_key\":\"$1\",\"anon_id\":\"$2\",\"categories\":{\"analytics\":true},\"event_type\":\"initial\",\"page_url\":\"https://example.com/$2\"}"
}
for i in $(seq 30); do post er "v$i"; post er target; done
post er2 target
ctl consent seal er
for i in 1 2 3; do post er target; done   # unsealed ones too
post er after
victim=$(hash target)
check test "$(db "SELECT count(*) FROM consent_log WHERE anon_id_hash = '$victim'")" = 34 "the visitor has 34 entries (31 sealed here, 3 not yet, 1 on another site)"

run consent erase er --anon-id target
succeeds 33 "erase: prints the number of entries erased"
check test "$(db "SELECT count(*) FROM consent_log WHERE anon_id_hash = '$victim' AND site_id = 1")" = 0 "none of the visitor's entries is left on the site"
check test "$(db "SELECT count(*) FROM consent_log WHERE anon_id_hash = '$victim' AND site_id = 2")" = 1 "another site's entry of the same id is not touched"
check test "$(db "SELECT count(*) FROM mau_visitors WHERE anon_id_hash = '$victim' AND site_id = 1")" = 0 "nor the monthly visitor row"
check test "$(db "SELECT count(*) FROM consent_pruned")" = 30 "the 30 sealed entries left their leaves (digests only)"
check test "$(db "SELECT count(*) FROM consent_log WHERE site_id = 1")" = 31 "the other visitors' entries stay"
run consent verify er
check test "$rc" = 0 "every seal still verifies"
check grep -q "^er: 31 entries verified (30 sealed, 1 not sealed yet), 1 seals, 30 pruned leaves$" "$T/out" "verify counts the pruned leaves"
check test "$(db "SELECT entries FROM consent_erasures")" = 33 "the erasure is recorded with its count"
if store_is_postgres; then
	check test "$(db "SELECT count(*) FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'consent_erasures' AND column_name NOT IN ('id', 'site_id', 'erased_at', 'entries')")" = 0 "the record holds no identifier"
else
	check test "$(db "SELECT count(*) FROM pragma_table_info('consent_erasures') WHERE name NOT IN ('id', 'site_id', 'erased_at', 'entries')")" = 0 "the record holds no identifier"
fi
# The hash of the visitor on site er2 is the same bytes: scan a copy without it.
db "DELETE FROM consent_log WHERE site_id = 2; DELETE FROM mau_visitors WHERE site_id = 2" >/dev/null
ctl consent erase er2 --anon-id target >/dev/null
if store_is_postgres; then
	pg_dump_db > "$T/dump.sql" || notok "pg_dump of the test database"
	if grep -c -a "$victim" "$T/dump.sql" >/dev/null; then notok "a pg_dump still holds the visitor's hash"; else ok "no byte of the visitor's hash in a pg_dump of the database"; fi
	if grep -a -q "$(hash v7)" "$T/dump.sql"; then ok "the scan finds a hash that is there (the scan works)"; else notok "the scan finds a hash that is there"; fi
	skip "integrity_check: SQLite only (PRAGMA integrity_check)"
else
	for f in "$CONSENT_DB" "$CONSENT_DB-wal" "$CONSENT_DB-shm"; do
		[ -e "$f" ] || continue
		if grep -c -a "$victim" "$f" >/dev/null; then notok "$(basename "$f") still holds the visitor's hash"; else ok "no byte of the visitor's hash in $(basename "$f")"; fi
	done
	if grep -a -q "$(hash v7)" "$CONSENT_DB" "$CONSENT_DB-wal" 2>/dev/null; then ok "the scan finds a hash that is there (the scan works)"; else notok "the scan finds a hash that is there"; fi
	check test "$(db 'PRAGMA integrity_check')" = ok "integrity_check ok"
fi

# The endpoints keep working, and later seals chain on.
post er target
expect_status 201 "the visitor may consent again"
ctl consent seal er
run consent verify er
check test "$rc" = 0 "seals after the erasure verify"
run consent erase er --anon-id nobody
succeeds 0 "erase of an unknown visitor: 0"
run consent erase er
fails 2 "consent erase needs --anon-id ID" "erase without --anon-id"
run consent erase nosuch --anon-id target
fails 1 "unknown site: nosuch" "erase on an unknown site"
