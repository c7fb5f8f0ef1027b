#!/bin/sh
# instr.sh: the instructions one CGI request of each endpoint executes
# (valgrind's callgrind, user space), for this tree's build and for each
# BENCH_VARIANTS="name=DIR" (DIR holds config, consent and scripts; its
# consentctl as bench/run.sh finds it makes its own database).  Unlike the
# timed bench these counts do not move with the machine's load: the same
# binary on the same database gives the same figure to within a few
# hundred instructions, so a change of 1% is seen on a shared machine where
# the timed medians move by 10%.  Each request runs on a fresh copy of an
# "empty" database (the site "bench" with bench/fixtures/config.json
# published), with bench/run.sh's request (German visitor, its body).
# Prints a Markdown table; not part of make check (make bench-instr).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
say() { printf 'bench/instr: %s\n' "$*" >&2; }
command -v valgrind >/dev/null 2>&1 || { say "valgrind is not installed"; exit 1; }
[ -x cgi-bin/consent ] && [ -x bin/consentctl ] || { say "build first (make)"; exit 1; }
W=$(mktemp -d /tmp/consent-instr.XXXXXX)
trap 'rm -rf "$W"' EXIT INT TERM

# The consentctl that made a variant's own schema (bench/run.sh's rule).
ctl_of() {
	for c in "$1/consentctl" "$1/../bin/consentctl" "$1/../tools/consentctl"; do
		[ -x "$c" ] && { echo "$c"; return; }
	done
	echo "$top/bin/consentctl"
}

make_db() { # consentctl db
	"$1" --db "$2" init >/dev/null
	"$1" --db "$2" site add bench --name "Bench site" --domain bench.example --mau-cap 1000000000 >/dev/null
	"$1" --db "$2" config publish bench bench/fixtures/config.json >/dev/null
	sqlite3 "$2" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
}

# One request of endpoint e by DIR/e on a copy of db: its instruction count.
count() { # e dir db
	rm -f "$W"/run.db*
	cp "$3" "$W/run.db"
	method=GET q= body=/dev/null
	case $1 in
	config) q=site_key=bench ;;
	consent) method=POST body=bench/fixtures/consent.json ;;
	scripts) method=POST body=bench/fixtures/scripts.json ;;
	esac
	sed 's/@ID@/instr/g' "$body" > "$W/body"
	set -- "$1" "$2" GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
	    SERVER_NAME=127.0.0.1 SERVER_PORT=8080 REQUEST_METHOD=$method QUERY_STRING=$q \
	    REQUEST_URI=/functions/v1/$1 SCRIPT_NAME=/functions/v1/$1 REMOTE_ADDR=127.0.0.1 \
	    HTTP_HOST=127.0.0.1 HTTP_ORIGIN=https://www.bench.example \
	    "HTTP_USER_AGENT=Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36" \
	    "HTTP_ACCEPT_LANGUAGE=de-DE,de;q=0.9,en;q=0.8" HTTP_CF_IPCOUNTRY=DE CONSENT_DB="$W/run.db"
	e=$1 dir=$2
	shift 2
	[ "$method" = GET ] || set -- "$@" CONTENT_TYPE=application/json CONTENT_LENGTH="$(wc -c < "$W/body")"
	env -i "$@" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$dir/$e" \
	    < "$W/body" > "$W/out" 2> "$W/err" || { cat "$W/err" >&2; say "$dir/$e failed"; exit 1; }
	grep -q '^Status: 20[01]' "$W/out" || { head -c 300 "$W/out" >&2; say "$dir/$e did not answer 2xx"; exit 1; }
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$W/err"
}

variants="this=$top/cgi-bin ${BENCH_VARIANTS:-}"
for v in $variants; do
	make_db "$(ctl_of "${v#*=}")" "$W/${v%%=*}.db"
done
printf '| endpoint |'
for v in $variants; do printf ' %s |' "${v%%=*}"; done
[ "$(echo $variants | wc -w)" -lt 2 ] || printf ' this / %s |' "$(echo $variants | cut -d' ' -f2 | cut -d= -f1)"
printf '\n|---|'
for v in $variants; do printf -- '---:|'; done
[ "$(echo $variants | wc -w)" -lt 2 ] || printf -- '---:|'
printf '\n'
for e in config consent scripts; do
	printf '| %s |' "$e"
	first= second=
	for v in $variants; do
		n=$(count "$e" "${v#*=}" "$W/${v%%=*}.db")
		[ -n "$first" ] && { [ -n "$second" ] || second=$n; } || first=$n
		printf ' %s |' "$(printf '%d' "$n" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')"
	done
	[ -z "$second" ] || awk -v a="$first" -v b="$second" 'BEGIN { printf " %+.1f%% |", (a / b - 1) * 100 }'
	printf '\n'
done
echo
echo "Instructions (user space, valgrind --tool=callgrind) of one CGI request, each on a fresh copy of its variant's empty database; $(valgrind --version)."
