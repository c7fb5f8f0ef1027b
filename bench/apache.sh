#!/bin/sh
# apache.sh: `make bench-apache`.  The writers through Apache's mod_fcgid
# (apache/consent-fcgid.conf as shipped), beside the cheapest CGI program
# (bench/hello.c) through Apache's mod_cgid in the same server: wrk at 8
# connections, ROUNDS interleaved rounds, medians, ratios to that floor.
#
# mod_fcgid hands a process one request at a time, so a writer's group
# commit (README "FastCGI mode") is always one request there: this measures
# what that costs against lighttpd (make bench).  It uses make bench's
# build and empty database (build/bench; run `make bench` first).
#
# Settings: BENCH_ROUNDS (3), BENCH_SECONDS (3), BENCH_PORT (18300),
# BENCH_FCGI_PROCS (8: FcgidMaxProcessesPerClass, Define CONSENT_FCGI_PROCS),
# BENCH_SYNC (unset: the default, full; normal: Define CONSENT_SYNC normal).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ROUNDS=${BENCH_ROUNDS:-3}
SECS=${BENCH_SECONDS:-3}
PORT=${BENCH_PORT:-18300}
PROCS=${BENCH_FCGI_PROCS:-8}
SYNC=${BENCH_SYNC:-}
W=$top/build/bench/apache
mods=/usr/lib/apache2/modules
say() { printf 'bench-apache: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

PATH=$PATH:/usr/sbin:/sbin
for t in apache2 wrk curl; do command -v $t >/dev/null 2>&1 || die "$t is not installed (sh tools/deps.sh)"; done
for m in mpm_event cgid fcgid setenvif headers alias authz_core; do
	[ -f "$mods/mod_$m.so" ] || die "$mods/mod_$m.so is missing (sh tools/deps.sh)"
done
for f in cgi-bin/config cgi-bin/consent cgi-bin/scripts run/floor/hello run/empty-pristine.db; do
	[ -f "build/bench/$f" ] || die "no build/bench/$f: run make bench first"
done

rm -rf "$W"
mkdir -p "$W/run/fcgid" "$W/cgi-bin" "$W/floor" "$W/data" "$W/sdk"
cp build/bench/cgi-bin/config build/bench/cgi-bin/consent build/bench/cgi-bin/scripts "$W/cgi-bin/"
cp build/bench/run/floor/hello "$W/floor/hello"
cp build/bench/run/empty-pristine.db "$W/data/c.db"
: > "$W/sdk/consent.js"
user_lines=
if [ "$(id -u)" = 0 ]; then
	group=nogroup
	getent group nogroup >/dev/null 2>&1 || group=nobody
	user_lines="User nobody
Group $group"
	chown -R "nobody:$group" "$W"
fi
cat > "$W/httpd.conf" <<CONF
ServerRoot "$W"
PidFile "$W/run/httpd.pid"
ErrorLog "$W/error.log"
LogLevel warn
ServerName 127.0.0.1
$user_lines
LoadModule mpm_event_module $mods/mod_mpm_event.so
LoadModule authz_core_module $mods/mod_authz_core.so
LoadModule alias_module $mods/mod_alias.so
LoadModule cgid_module $mods/mod_cgid.so
LoadModule setenvif_module $mods/mod_setenvif.so
LoadModule headers_module $mods/mod_headers.so
LoadModule fcgid_module $mods/mod_fcgid.so
ScriptSock "$W/run/cgid.sock"
FcgidIPCDir "$W/run/fcgid"
FcgidProcessTableFile "$W/run/fcgid_shm"
Listen 127.0.0.1:$PORT
DocumentRoot "$W/floor"
ScriptAlias /floor/ "$W/floor/"
<Directory "$W/floor">
	Require all granted
</Directory>
# The shipped vhost lines; no mod_qos (its limit would be measured).
Define CONSENT_CGIBIN $W/cgi-bin
Define CONSENT_DB_DIR $W/data
Define CONSENT_DB $W/data/c.db
Define CONSENT_SDK_DIR $W/sdk
Define CONSENT_FCGI_PROCS $PROCS
${SYNC:+Define CONSENT_SYNC $SYNC}
Include "$top/apache/consent-fcgid.conf"
CONF
apache2 -t -d "$W" -f "$W/httpd.conf" >/dev/null 2>&1 || die "apache2 -t: $(apache2 -t -d "$W" -f "$W/httpd.conf" 2>&1 | head -n 3)"
apache2 -d "$W" -f "$W/httpd.conf" -k start || die "apache2 did not start"
trap 'apache2 -d "$W" -f "$W/httpd.conf" -k stop 2>/dev/null || true' EXIT
base=http://127.0.0.1:$PORT
for i in $(seq 50); do curl -s -o /dev/null "$base/floor/hello" && break; sleep 0.1; done

path_of() { case $1 in floor) echo /floor/hello ;; config) echo "/functions/v1/config?site_key=bench" ;; *) echo "/functions/v1/$1" ;; esac; }
body_of() { case $1 in consent|scripts) echo "$top/bench/fixtures/$1.json" ;; *) echo "" ;; esac; }
expect_of() { case $1 in consent) echo 201 ;; *) echo 200 ;; esac; }
for s in floor config consent scripts; do
	b=$(body_of $s)
	if [ -n "$b" ]; then
		sed "s/@ID@/preflight-$s/g" "$b" > "$W/pre.json"
		code=$(curl -s -o "$W/pre.out" -w '%{http_code}' -H 'Origin: https://www.bench.example' \
		    -H 'CF-IPCountry: DE' --data-binary @"$W/pre.json" "$base$(path_of $s)")
	else
		code=$(curl -s -o "$W/pre.out" -w '%{http_code}' -H 'Origin: https://www.bench.example' "$base$(path_of $s)")
	fi
	[ "$code" = "$(expect_of $s)" ] || die "$s answered $code: $(head -c 300 "$W/pre.out")"
done

say "apache2 (mod_cgid floor, mod_fcgid endpoints, $PROCS processes per endpoint${SYNC:+, CONSENT_SYNC=$SYNC}) on $base: $ROUNDS rounds of wrk ${SECS}s at 8 connections"
: > "$W/raw"
for r in $(seq "$ROUNDS"); do
	for s in floor config consent scripts; do
		out=$(BENCH_BODY=$(body_of $s) BENCH_SALT="a$r-$$" wrk -t2 -c8 -d"${SECS}s" --timeout 10s \
		    -s bench/wrk.lua "$base$(path_of $s)" 2>&1) || die "wrk failed on $s: $out"
		line=$(printf '%s\n' "$out" | grep '^RESULT ') || die "wrk gave no result on $s: $out"
		printf '%s\n' "$line" | sed 's/[a-z0-9_]*=//g' | awk -v s=$s \
		    '{ printf "%s %.1f %d\n", s, $2 * 1e6 / $3, $6 + $7 }' >> "$W/raw"
	done
done
# Medians per scenario; ratios to the floor's median.
awk '{ v[$1] = v[$1] " " $2; e[$1] += $3 }
END {
	n = split("floor config consent scripts", order, " ")
	for (i = 1; i <= n; i++) {
		s = order[i]; m = split(substr(v[s], 2), a, " ")
		for (x = 1; x <= m; x++) for (y = x + 1; y <= m; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
		med[s] = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	printf "| scenario | req/s c8 (median) | ratio to the Apache CGI floor | errors |\n|---|---:|---:|---:|\n"
	for (i = 1; i <= n; i++) { s = order[i]; printf "| %s | %.0f | %.2f | %d |\n", s, med[s], med[s] / med["floor"], e[s] }
}' "$W/raw"
