#!/bin/bash
# t0180-migrate.sh: consentctl migrate (issue 13): a whole database copied
# into a new PostgreSQL database in one transaction, its counts checked;
# afterwards every listing, export, statistic, report and proof reads the
# same on both, and the copy goes on where the source stopped (each
# identity past the highest id).  A target that is not new, a source that
# is not a database, a row PostgreSQL refuses: one line, exit 1, the target
# unchanged.  Progress only on a terminal.  And back: PostgreSQL into a new
# SQLite file gives the source's dump byte for byte.
#
# It needs a PostgreSQL test cluster: the run's (CONSENT_TEST_STORE=postgres)
# or one started with `sh tests/pg.sh start DIR` and named by
# CONSENT_PG_DIR=DIR; without one it skips.  On PostgreSQL the test's own
# database is copied into a SQLite file first, which is then the source.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

if [ -z "${CONSENT_PG_DIR:-}" ] || [ ! -S "$CONSENT_PG_DIR/.s.PGSQL.5432" ]; then
	skip "t0180-migrate: no PostgreSQL test cluster (CONSENT_TEST_STORE=postgres, or sh tests/pg.sh start DIR and CONSENT_PG_DIR=DIR)"
	exit 0
fi
store_is_postgres || . "$TOP/tests/pg.sh"

# The databases this file makes, dropped at the end.
DBS=""
trap 'for d in $DBS; do pg_drop_db "$d" >/dev/null 2>&1 || notok "dropping $d"; done; _cleanup' EXIT
new_db() { # a new, empty database: its conninfo in $db, its name in $dbname
	db=$(pg_new_db t0180 2> "$T/pg-new") || { notok "a PostgreSQL database: $(cat "$T/pg-new")"; exit 1; }
	dbname=${db#*dbname=}
	dbname=${dbname%% *}
	DBS="$DBS $dbname"
}
psql_at() { pg_psql "$1" -X -q -At -c "$2"; } # NAME SQL

# --- a database with a bit of everything --------------------------------------
# Two sites with published versions (one published twice), one without;
# entries with every field, some sealed, one visitor erased (pruned leaves,
# an erasure); script records and syncs; text with backslashes and line
# breaks (the name, the documents).
site pr --domain www.example.com --tier paid --mau-cap 500
site other
ctl site add empty --name 'Back\slash \t and "quotes"' >/dev/null
ctl site set other --retention-days 30 >/dev/null
ctl config publish pr "$TOP/tests/fixtures/config-test.json" >/dev/null
jq '.content.translations.de.banner.title = "Cookies\nhier\t2 \\ x"' "$TOP/tests/fixtures/config-test.json" |
	ctl config publish pr - >/dev/null
ctl config publish other "$TOP/tests/fixtures/config-test.json" >/dev/null
post() { # SITE ANON_ID I: one entry; I picks its fields
	local ttA
	ttA=$(awk -v i="$3" 'BEGIN { printf "%.17g", i * 1.1 + 1 / 3 }')
	cgi HTTP_SEC_GPC=$(($3 % 2)) HTTP_CF_IPCOUNTRY=DE \
	    HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" \
	    POST consent "" "{\"site_key\":\"$1\",\"anon_id\":\"$2\",\"categories\":{\"necessary\":true,\"analytics\":$([ $(($3 % 2)) = 0 ] && echo true || echo false)},\"event_type\":\"$([ $(($3 % 3)) = 0 ] && echo impression || echo initial)\",\"event_action\":\"partial\",\"config_version\":2,\"region\":\"gdpr\",\"consent_model\":\"opt_in\",\"regulation\":\"gdpr\",\"time_to_action_ms\":$ttA,\"interaction\":\"customize\",\"preferences_opened\":true,\"banner_load_time_ms\":$3,\"banner_position\":\"bottom-full\",\"page_url\":\"https://example.com/p?x=$3\",\"sdk_version\":\"0.9.0\",\"language\":\"de-DE\",\"resolved_language\":\"de\"}"
	[ "$(cat "$T/status")" = 201 ] || notok "consent POST $1 $2: status $(cat "$T/status")"
}
for i in $(seq 1 24); do post pr "v-$((i % 9))" "$i"; done
for i in 1 2 3; do post other "o-$i" "$i"; done
ctl consent seal >/dev/null
for i in 1 2; do
	cgi POST consent "" "{\"site_key\":\"pr\",\"anon_id\":\"late-$i\",\"categories\":{\"necessary\":true},\"event_type\":\"update\",\"event_action\":\"opt_out\",\"time_to_action_ms\":0.1}"
done
ctl consent erase pr --anon-id v-3 >/dev/null
e() { printf '{"src":"https://%s/x.js","domain":"%s","category":%s,"blocked":%s}' "$1" "$1" "${2:-null}" "${3:-false}"; }
cgi POST scripts "" "{\"site_key\":\"pr\",\"page_url\":\"https://example.com/p\",\"timestamp\":1763800000,\"scripts\":[$(e www.google-analytics.com),$(e cdn.example.org '"functional"' true)]}"
sync=$(ctl sync start pr)
ctl sync start pr >/dev/null
cgi POST scripts "sync_id=$sync" "{\"site_key\":\"pr\",\"page_url\":\"https://example.com/q\",\"timestamp\":1763800001,\"scripts\":[$(e widget.example.net '"marketing"')]}"
# The dashboard's accounts (version 5): an owner with a factor, codes and a
# reset code, an editor with a password, a session, sign-in attempts.
ctl user add own --role owner >/dev/null
ctl user add ed --role editor --site pr --password-stdin <<< 'correct horse battery staple 9' >/dev/null
db "INSERT INTO admin_sessions (token_hash, id, account, csrf, created_at, last_seen, authenticated_at, address)
    VALUES ('$(printf %064d 1)', 'sess0001', 'ed', 'csrf', 1, 2, 3, '192.0.2.1')"
db "INSERT INTO admin_signins (at, username, address, result) VALUES (1, 'ed', '192.0.2.1', 'ok'), (2, 'x\y', NULL, 'bad')"
# The audit trail: records of the changes above, some sealed.
ctl audit seal
ctl site pause other >/dev/null

# The source: the test's database, or on PostgreSQL its copy in a new
# SQLite file (migrate the other way).
if store_is_postgres; then
	SRC=$T/source.db
	ctl --db "$SRC" init >/dev/null
	run migrate --from "$CONSENT_DB" --to "$SRC"
	succeeds "" "migrate the PostgreSQL test database into a new SQLite file: exit 0, silent"
else
	SRC=$CONSENT_DB
fi

# --- into a new PostgreSQL database -------------------------------------------
new_db
PGT=$db PGN=$dbname
run migrate --from "$SRC" --to "$PGT"
fails 1 "the PostgreSQL database has no schema (consentctl init makes it)" "a database without the schema: refused"
ctl --db "$PGT" init >/dev/null
run migrate --from "$SRC" --to "$PGT"
succeeds "" "migrate SQLite into PostgreSQL (consentctl init made it): exit 0, nothing printed off a terminal"
# Another copy, left as migrate made it, for the way back at the end.
new_db
CLEAN=$db
ctl --db "$CLEAN" init >/dev/null
ctl migrate --from "$SRC" --to "$CLEAN" || notok "a second copy"

tables="sites domains configs config_skeletons config_answers consent_seals consent_log consent_pruned consent_erasures builtin_texts mau_visitors mau_counts scripts syncs audit_seals audit_log admin_accounts admin_roles admin_recovery_codes admin_sessions admin_signins admin_reset_codes"
if command -v sqlite3 >/dev/null 2>&1; then
	want="" got=""
	for t in $tables; do
		want="$want $t:$(sqlite3 "$SRC" "SELECT count(*) FROM $t")"
		got="$got $t:$(psql_at "$PGN" "SELECT count(*) FROM $t")"
	done
	check test "$got" = "$want" "psql counts every table's rows as sqlite3 does ($got)"
	check test "$(psql_at "$PGN" "SELECT string_agg(id || ':' || config_id, ' ' ORDER BY id) FROM sites")" = \
	    "$(sqlite3 "$SRC" "SELECT group_concat(id || ':' || config_id, ' ') FROM (SELECT id, config_id FROM sites WHERE config_id IS NOT NULL ORDER BY id)")" "every site points at its published version"
	# init recorded this build's texts; the copy holds the source's record
	# of them (when they were first recorded) instead.
	check test "$(psql_at "$PGN" "SELECT string_agg(sha256 || recorded_at, ' ' ORDER BY sha256) FROM builtin_texts")" = \
	    "$(sqlite3 "$SRC" "SELECT group_concat(sha256 || recorded_at, ' ') FROM (SELECT * FROM builtin_texts ORDER BY sha256)")" "the records of built-in texts are the source's"
else
	skip "t0180-migrate: no sqlite3 to count the source's rows"
fi
check test "$(psql_at "$PGN" "SELECT sum(visitors) FROM mau_counts WHERE slot = 0")" = \
    "$(psql_at "$PGN" "SELECT sum(visitors) FROM mau_counts")" "the monthly counts are in slot 0"

# The same answers from both, byte for byte (the report's time aside).
same() { # DESC ARGS...: consentctl ARGS on the source and on the copy
	local desc=$1
	shift
	ctl --db "$SRC" "$@" > "$T/a" 2>&1
	echo "exit $?" >> "$T/a"
	ctl --db "$PGT" "$@" > "$T/b" 2>&1
	echo "exit $?" >> "$T/b"
	if [ "${1:-}" = report ]; then
		jq 'del(.generated_at)' "$T/a" > "$T/a2" 2>/dev/null; mv "$T/a2" "$T/a"
		jq 'del(.generated_at)' "$T/b" > "$T/b2" 2>/dev/null; mv "$T/b2" "$T/b"
	fi
	if cmp -s "$T/a" "$T/b" && [ "$(wc -l < "$T/a")" -gt 1 ]; then
		ok "$desc: the same on the copy"
	else
		notok "$desc: the copy differs: $(diff "$T/a" "$T/b" | head -n 6 | tr '\n' ' ' | cut -c1-400)"
	fi
}
same "site list" site list --json
same "site show" site show pr --json
same "site show (no version)" site show empty
same "config show" config show pr
same "consent export (jsonl)" consent export pr
same "consent export (csv)" consent export pr --format csv
same "consent export of the other site" consent export other
same "stats" stats pr --json
same "report --json" report pr --json
same "consent verify" consent verify pr --json
same "consent head --all" consent head pr --all
same "consent find" consent find pr --anon-id v-4
same "consent receipt" consent receipt pr --anon-id v-4 --json
same "scripts list" scripts list pr --json
same "sync show" sync show "$sync" --json
same "audit list" audit list --json
same "audit verify" audit verify --json

# Every identity is past the highest id copied: what the service adds next
# gets a new id.
for t in sites configs consent_seals consent_log consent_erasures audit_seals audit_log; do
	check test "$(psql_at "$PGN" "SELECT nextval(pg_get_serial_sequence('$t', 'id')) > coalesce(max(id), 0) FROM $t")" = t "$t: the next id is past the copied ones"
done
ctl --db "$PGT" site add later --name Later --domain example.com >/dev/null
check test "$(psql_at "$PGN" "SELECT id > (SELECT max(id) FROM sites WHERE site_key <> 'later') FROM sites WHERE site_key = 'later'")" = t "a site added after the copy gets a new id"
ctl --db "$PGT" consent seal >/dev/null
run --db "$PGT" consent verify pr
check test "$rc" = 0 "the copy seals and verifies"

# --- a target that is not new is left alone -----------------------------------
# The rows of a database (the positions of its identities aside: a
# sequence's move is not taken back with the transaction, and harms
# nothing); pg_dump's random \restrict key aside.
pg_dump_of() {
	"$_PG_BIN/pg_dump" -d "$(pg_admin_conninfo "$1")" --data-only --inserts 2>/dev/null |
		grep -v '^--\|^SET \|^SELECT pg_catalog\|^\\restrict \|^\\unrestrict '
}
pg_dump_of "$PGN" > "$T/before"
run migrate --from "$SRC" --to "$PGT"
fails 1 "the PostgreSQL database is not empty (sites: 4 rows): the copy goes into a new database" "migrate into a database that holds data: refused"
pg_dump_of "$PGN" > "$T/after"
check sh -c "grep -q '^INSERT INTO public.consent_log' '$T/before' && cmp -s '$T/before' '$T/after'" "that target is unchanged (pg_dump)"

# --- one row PostgreSQL refuses: nothing copied ---------------------------------
if command -v sqlite3 >/dev/null 2>&1; then
	cp "$SRC" "$T/bad.db"
	sqlite3 "$T/bad.db" "UPDATE consent_log SET page_url = CAST(x'68747470733a2f2fff' AS TEXT) WHERE id = (SELECT max(id) FROM consent_log)"
	new_db
	BAD=$db BADN=$dbname
	ctl --db "$BAD" init >/dev/null
	pg_dump_of "$BADN" > "$T/before"
	run migrate --from "$T/bad.db" --to "$BAD"
	check test "$rc:$(wc -l < "$T/err" | tr -d ' '):$(wc -c < "$T/out" | tr -d ' ')" = 1:1:0 "a row of invalid UTF-8 in the consent log: exit 1, one line ($(cat "$T/err"))"
	check grep -q '^consentctl: PostgreSQL: copy consent_log: ERROR: invalid byte sequence' "$T/err" "the line names the table and the cause"
	pg_dump_of "$BADN" > "$T/after"
	check sh -c "grep -q '^INSERT INTO public.builtin_texts' '$T/before' && cmp -s '$T/before' '$T/after'" \
	    "the target is as init left it (sites, configs and all copied before are taken back)"
else
	skip "t0180-migrate: no sqlite3 to spoil a row"
fi

# --- what is not a database -------------------------------------------------------
echo "not a database" > "$T/text"
run migrate --from "$T/text" --to "$PGT"
fails 1 "database: $T/text: file is not a database" "a source that is not a SQLite file: one line"
run migrate --from "$T/missing.db" --to "$PGT"
fails 1 "database $T/missing.db: No such file or directory" "a source that does not exist: one line"
run migrate --from "$SRC" --to "$T/nothing.db"
fails 1 "database $T/nothing.db: No such file or directory" "a target that is neither a connection string nor a file: one line"
check test ! -e "$T/nothing.db" "and no file of that name is made"
run migrate --from "$SRC" --to "host=$T/nowhere dbname=x user=consent password=s3cret"
check test "$rc:$(wc -l < "$T/err" | tr -d ' ')" = 1:1 "a PostgreSQL server that is not there: exit 1, one line"
check grep -q '^consentctl: PostgreSQL: connect: ' "$T/err" "the line says PostgreSQL could not be reached"
check sh -c "! grep -q s3cret '$T/err'" "the password is not printed"
sqlite3 "$T/v3.db" < "$TOP/tests/fixtures/schema-v3.sql" 2>/dev/null && {
	run migrate --from "$T/v3.db" --to "$PGT"
	fails 1 "database $T/v3.db is at schema version 3, this program at $(sed -n 's/^PRAGMA user_version = \([0-9]*\);.*/\1/p' "$TOP/schema.sql") (consentctl init upgrades an older one)" "a source at an older schema version: refused"
}
run migrate --from "$SRC"
fails 2 "usage: consentctl migrate --from DB --to DB" "without --to: usage, exit 2"
run migrate --from "$SRC" --to "$PGT" --db "$SRC"
fails 2 "migrate takes --from and --to, not --db" "with --db: usage, exit 2"
run migrate --from= --to "$PGT"
fails 2 "options --from and --to need a database" "an empty --from: usage, exit 2"

# --- progress, on a terminal only ----------------------------------------------------
if command -v script >/dev/null 2>&1; then
	new_db
	TTY=$db
	ctl --db "$TTY" init >/dev/null
	n=$(ctl --db "$SRC" consent export pr | wc -l)
	n=$((n + $(ctl --db "$SRC" consent export other | wc -l)))
	script -qec "'$BUILD/bin/consentctl' migrate --from '$SRC' --to '$TTY'" /dev/null > "$T/tty" 2>&1
	check test $? = 0 "on a terminal: exit 0"
	tr '\r' '\n' < "$T/tty" > "$T/lines"
	check grep -qx "consent_log *$n of $n rows" "$T/lines" "on a terminal: rows copied of the total, per table ($(grep consent_log "$T/lines" | tail -n 1))"
	check grep -q "^sites\.config_id *[0-9]* of [0-9]* rows" "$T/lines" "the sites' published versions too"
	check grep -q "^[0-9]* rows copied in $(grep -c '^COPY_' "$TOP/common/store/store_copy_parts.h") parts, each part's count checked" "$T/lines" "and a last line"
else
	skip "t0180-migrate: no script(1) to give migrate a terminal"
fi

# --- and back: PostgreSQL into a new SQLite file -----------------------------------
if command -v sqlite3 >/dev/null 2>&1; then
	ctl --db "$T/back.db" init >/dev/null
	run migrate --from "$CLEAN" --to "$T/back.db"
	succeeds "" "migrate PostgreSQL into a new SQLite file: exit 0"
	sqlite3 "$SRC" .dump > "$T/src.dump"
	sqlite3 "$T/back.db" .dump > "$T/back.dump"
	check cmp -s "$T/src.dump" "$T/back.dump" "SQLite to PostgreSQL and back: the same dump, byte for byte"
fi
