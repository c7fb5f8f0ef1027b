#!/bin/bash
# t0102-db-conninfo.sh: the database's name picks its store.  consentctl
# holds both: a PostgreSQL connection string to no server fails in one line
# and creates no file of that name.  The endpoints hold one: given the other
# kind (a connection string to the SQLite build, a file path to the
# PostgreSQL build) they answer 500 at once with one stderr line naming the
# mistake.  Nothing ever prints the string (it may hold a password).  A path
# with '=' further on is still a path.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

mkdir -p "$T/cwd"
for c in 'postgresql://consent:s3cret@/consent?host=/nonexistent' \
    'host=/nonexistent dbname=consent password=s3cret' ' dbname = consent host=/nonexistent password=s3cret'; do
	(cd "$T/cwd" && run --db "$c" init; echo "$rc" > "$T/rc")
	rc=$(cat "$T/rc")
	check test "$rc" = 1 -a "$(grep -c . "$T/err")" = 1 "consentctl --db '$c' init: fails in one line ($(head -c 160 "$T/err"))"
	check grep -q '^consentctl: PostgreSQL: connect: ' "$T/err" "consentctl --db '$c': the line says PostgreSQL could not be reached"
	(cd "$T/cwd" && CONSENT_DB=$c run site list; echo "$rc" > "$T/rc")
	rc=$(cat "$T/rc")
	check test "$rc" = 1 -a "$(grep -c . "$T/err")" = 1 "CONSENT_DB='$c' consentctl site list: fails in one line"
	check test "$(grep -c 's3cret' "$T/err" "$T/out" | awk -F: '{ n += $2 } END { print n }')" = 0 \
	    "'$c': the password is never printed"
done
check test -z "$(ls -A "$T/cwd")" "no file or folder was created for any of them ($(ls -A "$T/cwd" | head -c 100))"

# Paths with '=' that are not a keyword's.
mkdir -p "$T/a=b"
run --db "$T/a=b/consent.db" init
succeeds "" "a path with '=' in a folder's name: init creates it"
(cd "$T/cwd" && run --db "./x=y.db" init; echo "$rc" > "$T/rc")
rc=$(cat "$T/rc")
check test "$rc" = 0 -a -f "$T/cwd/x=y.db" "./x=y.db (a relative path): init creates it"
(cd "$T/cwd" && run --db "Host=db.db" init; echo "$rc" > "$T/rc")
rc=$(cat "$T/rc")
check test "$rc" = 0 -a -f "$T/cwd/Host=db.db" "Host=db.db (no lowercase keyword): a file"

# The endpoints: the other kind of name: 500 at once, one line, the string
# never printed; the next request with the real database is served as
# before (in FastCGI mode by the same process).
site s1
if store_is_postgres; then
	names=("$T/consent.db" "/var/lib/consent/consent.db")
	msg="the database is a file path, but this build stores in PostgreSQL"
else
	names=('postgresql://consent:s3cret@db.example/consent' 'host=db.example password=s3cret')
	msg="the database is a PostgreSQL connection string, but this build stores in SQLite"
fi
for e in config consent scripts; do
	for c in "${names[@]}"; do
		t0=$(date +%s%N)
		case $e in
		config) cgi CONSENT_DB="$c" GET config "site_key=s1" ;;
		consent) cgi CONSENT_DB="$c" POST consent "" '{"site_key":"s1","anon_id":"v1","categories":{"necessary":true},"event_type":"initial"}' ;;
		scripts) cgi CONSENT_DB="$c" POST scripts "" '{"site_key":"s1","page_url":"https://example.com/","scripts":[]}' ;;
		esac
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		expect_error 500 "Internal server error" "$e with CONSENT_DB='$c': 500"
		check test "$ms" -lt 2000 "$e: answered in $ms ms (under 2 s: no wait for a server)"
		check test "$(grep -c . "$T/stderr")" = 1 -a "$(grep -c "$msg" "$T/stderr")" = 1 \
		    "$e: one line on stderr names the mistake ($(head -c 160 "$T/stderr"))"
		check test "$(grep -c 's3cret' "$T/stderr" "$T/body" "$T/headers" | awk -F: '{ n += $2 } END { print n }')" = 0 \
		    "$e: the name is in neither stderr nor the answer"
	done
done
if store_is_postgres; then
	check test ! -e "$T/consent.db" "the PostgreSQL endpoints created no SQLite file"
fi
cgi GET config "site_key=s1"
expect_status 200 "config with the real database afterwards: 200"
cgi POST consent "" '{"site_key":"s1","anon_id":"v1","categories":{"necessary":true},"event_type":"initial"}'
expect_status 201 "consent with the real database afterwards: 201"
