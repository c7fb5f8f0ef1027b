#!/bin/bash
# log.sh: the dashboard's consent log over BENCH_ROWS (1,000,000) entries of
# one site (bench/report.sql, the database cached in build/bench/ while its
# inputs do not change): GET sites/bench/consents (the first page, a deep
# page filtered, and a filter no entry matches) through cgi-bin/admin,
# BENCH_LOG_N (5) runs each, and the export (JSONL) through the admin and
# through consentctl: wall time and peak RSS (GNU time).  The issue's
# target: a page of 50 in at most 100 ms; the export's memory not growing
# with the log.  With BENCH_PG=1 also on PostgreSQL (tests/pg.sh's
# cluster, the same rows copied by consentctl migrate; needs make
# B=build/pg STORE=postgres).  Not part of make check.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ROWS=${BENCH_ROWS:-1000000}
N=${BENCH_LOG_N:-5}
CTL=${BENCH_CTL:-$top/bin/consentctl}
ADMIN=${BENCH_ADMIN:-$top/cgi-bin/admin}
db=$top/build/bench/log-$ROWS.db
PW=Bench-owner-pass-7q2x
say() { printf 'bench/log: %s\n' "$*" >&2; }
[ -x "$CTL" ] && [ -x "$ADMIN" ] || { say "build first (make)"; exit 1; }
mkdir -p build/bench
stamp=$( { cat schema.sql bench/report.sql; echo "$ROWS"; date -u +%Y-%m-%d; } | cksum)
if [ ! -f "$db" ] || [ "$(cat "$db.stamp" 2>/dev/null)" != "$stamp" ]; then
	say "generating $ROWS consent entries (cached in build/bench/ for today)"
	rm -f "$db" "$db".*
	"$CTL" --db "$db.tmp" init >/dev/null
	"$CTL" --db "$db.tmp" site add bench --name "Bench site" --domain bench.example >/dev/null
	sqlite3 -bail -cmd ".parameter set @rows $ROWS" "$db.tmp" < bench/report.sql >/dev/null
	printf '%s\n' "$PW" | "$CTL" --db "$db.tmp" user add bench --role owner --password-stdin \
	    --json > "$db.user"
	sqlite3 "$db.tmp" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
	rm -f "$db.tmp-wal" "$db.tmp-shm"
	mv "$db.tmp" "$db"
	echo "$stamp" > "$db.stamp"
fi
totp() {
	python3 - "$1" "$(date +%s)" <<'PY'
import base64, hashlib, hmac, struct, sys
s = sys.argv[1].upper()
key = base64.b32decode(s + "=" * (-len(s) % 8))
mac = hmac.new(key, struct.pack(">Q", int(sys.argv[2]) // 30), hashlib.sha1).digest()
o = mac[-1] & 15
print("%06d" % ((struct.unpack(">I", mac[o:o + 4])[0] & 0x7fffffff) % 1000000))
PY
}
# One request to the admin as the page makes it: METHOD PATH [BODY]; the
# answer in build/bench/log-out.
admin() {
	local q=""
	case $2 in *\?*) q=${2#*\?} ;; esac
	printf '%s' "${3-}" | env -i CONSENT_DB="$DBARG" REQUEST_METHOD="$1" PATH_INFO="/${2%%\?*}" \
	    QUERY_STRING="$q" SCRIPT_NAME=/admin/api HTTPS=on HTTP_HOST=dash.bench \
	    HTTP_ORIGIN=https://dash.bench HTTP_SEC_FETCH_SITE=same-origin REMOTE_ADDR=127.0.0.1 \
	    CONTENT_TYPE=application/json CONTENT_LENGTH="$(printf '%s' "${3-}" | wc -c)" \
	    ${COOKIE:+HTTP_COOKIE="__Host-consent_admin=$COOKIE"} "$ADMIN"
}
# Each TOTP step is accepted once: a run soon after another waits for the next.
sign_in() {
	COOKIE=
	for _ in 1 2; do
		try_sign_in
		[ -n "$COOKIE" ] && return 0
		sleep $((31 - $(date +%s) % 30))
	done
	say "sign-in failed: $(head -c 300 build/bench/log-out)"
	exit 1
}
try_sign_in() {
	admin POST session "{\"username\":\"bench\",\"password\":\"$PW\",\"totp\":\"$(totp "$(jq -r .secret "$db.user")")\"}" \
	    > build/bench/log-out
	COOKIE=$(sed -n 's/^Set-Cookie: __Host-consent_admin=\([^;]*\);.*/\1/p' build/bench/log-out)
}
median() { sort -n | sed -n "$(( (N + 1) / 2 ))p"; }
# NAME PATH: N timed runs of one GET, the median wall ms and the rows.
page() {
	: > build/bench/log-times
	for _ in $(seq "$N"); do
		/usr/bin/time -f '%e' -a -o build/bench/log-times bash -c 'admin "$@" > build/bench/log-out' _ GET "$2"
	done
	rows=$(sed '1,/^\r$/d' build/bench/log-out | jq '.entries | length')
	say "$STORE_NAME $1: $rows rows, wall ms $(awk '{ printf "%d ", $1 * 1000 }' build/bench/log-times)(median $(awk '{ print $1 * 1000 }' build/bench/log-times | median))"
}
export -f admin
export ADMIN
run_store() {
	export DBARG COOKIE
	sign_in
	export COOKIE
	# The cursor of the 500,000th newest entry: a deep page.
	page "first page (50)" "sites/bench/consents"
	page "deep page (50, event=update&gpc=true, past half the log)" \
	    "sites/bench/consents?event=update&gpc=true&cursor=$DEEP"
	page "a filter nothing matches (country=FR: one window of 20,000 entries, then next)" "sites/bench/consents?country=FR"
	/usr/bin/time -f '%e %M' -o build/bench/log-times bash -c 'admin GET "sites/bench/consents/export?format=jsonl" > build/bench/log-export' 
	say "$STORE_NAME export (JSONL) through the admin: $(sed '1,/^\r$/d' build/bench/log-export | wc -l) rows, $(du -m build/bench/log-export | cut -f1) MB, wall s, peak RSS KB: $(cat build/bench/log-times)"
	/usr/bin/time -f '%e %M' -o build/bench/log-times "$CTL" --db "$DBARG" consent export bench > /dev/null
	say "$STORE_NAME consentctl consent export: wall s, peak RSS KB: $(cat build/bench/log-times)"
}
at=$(sqlite3 "$db" "SELECT created_at || '/' || id FROM consent_log ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $((ROWS / 2))")
DEEP=$(printf '%s' "$at" | base64 -w0 | tr '+/' '-_' | tr -d '=')
STORE_NAME=sqlite DBARG=$db run_store
if [ "${BENCH_PG:-0}" = 1 ]; then
	pgdir=$top/build/bench/log-pg
	rm -rf "$pgdir"
	eval "$(sh tests/pg.sh start --env "$pgdir")"
	export CONSENT_PG_DIR
	trap 'sh tests/pg.sh stop "$pgdir"' EXIT
	. tests/pg.sh
	conn=$(pg_new_db logbench)
	PGCTL=$top/build/pg/bin/consentctl
	say "PostgreSQL: copying the log (consentctl migrate)"
	"$PGCTL" --db "$conn" init > /dev/null
	"$PGCTL" migrate --from "$db" --to "$conn" > /dev/null
	name=${conn#*dbname=}
	pg_psql "${name%% *}" -q -c 'VACUUM ANALYZE' 2>/dev/null || true
	ADMIN=$top/build/pg/cgi-bin/admin
	export ADMIN
	CTL=$PGCTL STORE_NAME=postgres DBARG=$conn run_store
fi
