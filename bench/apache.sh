#!/bin/sh
# apache.sh: `make bench-apache`.  The three endpoints through Apache's two
# shipped FastCGI configs, beside the cheapest CGI program (bench/hello.c)
# through Apache's mod_cgid in the same server: wrk at 8 connections, ROUNDS
# interleaved rounds, medians, ratios to that floor.  One server, two ports:
#   fcgid  apache/consent-fcgid.conf: mod_fcgid starts the processes and
#          hands each one request at a time, so a writer's group commit
#          (docs/deploy.md "FastCGI mode") is always one request;
#   proxy  apache/consent-proxy-fcgi.conf: mod_proxy_fcgi to pools started
#          by apache/consent-fcgi@.service's command line (spawn-fcgi,
#          multiwatch), each endpoint's processes on one shared socket.
# It uses make bench's build and empty database (build/bench; run `make
# bench` first), one copy of the database per config.
#
# Settings: BENCH_ROUNDS (3), BENCH_SECONDS (3), BENCH_PORT (18300, and the
# next port), BENCH_FCGI_PROCS (8: mod_fcgid's processes per endpoint at
# most, Define CONSENT_FCGI_PROCS), BENCH_POOL_PROCS (config 4, writers 2:
# the pools' processes, as "4 2"), BENCH_SYNC (unset: the default, full;
# normal: CONSENT_SYNC=normal for both).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ROUNDS=${BENCH_ROUNDS:-3}
SECS=${BENCH_SECONDS:-3}
PORT=${BENCH_PORT:-18300}
PROCS=${BENCH_FCGI_PROCS:-8}
POOL=${BENCH_POOL_PROCS:-4 2}
POOL_CONFIG=${POOL%% *} POOL_WRITERS=${POOL##* }
PPORT=$((PORT + 1))
SYNC=${BENCH_SYNC:-}
W=$top/build/bench/apache
mods=/usr/lib/apache2/modules
say() { printf 'bench-apache: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

PATH=$PATH:/usr/sbin:/sbin
for t in apache2 wrk curl spawn-fcgi multiwatch; do command -v $t >/dev/null 2>&1 || die "$t is not installed (sh tools/deps.sh)"; done
for m in mpm_event cgid fcgid proxy proxy_fcgi setenvif headers alias authz_core; do
	[ -f "$mods/mod_$m.so" ] || die "$mods/mod_$m.so is missing (sh tools/deps.sh)"
done
for f in cgi-bin/config cgi-bin/consent cgi-bin/scripts run/floor/hello run/empty-pristine.db; do
	[ -f "build/bench/$f" ] || die "no build/bench/$f: run make bench first"
done

rm -rf "$W"
mkdir -p "$W/run/fcgid" "$W/cgi-bin" "$W/cgi-bin-proxy" "$W/floor" "$W/data" "$W/sdk"
cp build/bench/cgi-bin/config build/bench/cgi-bin/consent build/bench/cgi-bin/scripts "$W/cgi-bin/"
cp build/bench/cgi-bin/config build/bench/cgi-bin/consent build/bench/cgi-bin/scripts "$W/cgi-bin-proxy/"
cp build/bench/run/floor/hello "$W/floor/hello"
cp build/bench/run/empty-pristine.db "$W/data/c.db"
cp build/bench/run/empty-pristine.db "$W/data/p.db"
: > "$W/sdk/consent.js"
user_lines= as_user=
if [ "$(id -u)" = 0 ]; then
	group=nogroup
	getent group nogroup >/dev/null 2>&1 || group=nobody
	user_lines="User nobody
Group $group"
	chown -R "nobody:$group" "$W"
	as_user="setpriv --reuid nobody --regid $group --clear-groups"
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
LoadModule proxy_module $mods/mod_proxy.so
LoadModule proxy_fcgi_module $mods/mod_proxy_fcgi.so
Listen 127.0.0.1:$PORT
Listen 127.0.0.1:$PPORT
DocumentRoot "$W/floor"
ScriptAlias /floor/ "$W/floor/"
<Directory "$W/floor">
	Require all granted
</Directory>
# The shipped vhost lines; no mod_qos (its limit would be measured).
<VirtualHost 127.0.0.1:$PORT>
	Define CONSENT_CGIBIN $W/cgi-bin
	Define CONSENT_DB_DIR $W/data
	Define CONSENT_DB $W/data/c.db
	Define CONSENT_SDK_DIR $W/sdk
	Define CONSENT_FCGI_PROCS $PROCS
	${SYNC:+Define CONSENT_SYNC $SYNC}
	Include "$top/apache/consent-fcgid.conf"
</VirtualHost>
<VirtualHost 127.0.0.1:$PPORT>
	Define CONSENT_CGIBIN $W/cgi-bin-proxy
	Define CONSENT_FCGI_RUN $W/run
	Include "$top/apache/consent-proxy-fcgi.conf"
</VirtualHost>
CONF
# The pools, as the unit starts them (tools/fcgi-pool.sh).
. "$top/tools/fcgi-pool.sh"
pools=
for e in config consent scripts; do
	n=$POOL_WRITERS; [ $e = config ] && n=$POOL_CONFIG
	FCGI_POOL_AS=$as_user fcgi_pool_start apache/consent-fcgi@.service $e \
	    RUN="$W/run" CGIBIN="$W/cgi-bin-proxy" PROCS=$n CONSENT_DB="$W/data/p.db" \
	    ${SYNC:+CONSENT_SYNC=$SYNC} 2>>"$W/pools.log"
	pools="$pools $FCGI_POOL_PID"
done
apache2 -t -d "$W" -f "$W/httpd.conf" >/dev/null 2>&1 || die "apache2 -t: $(apache2 -t -d "$W" -f "$W/httpd.conf" 2>&1 | head -n 3)"
apache2 -d "$W" -f "$W/httpd.conf" -k start || die "apache2 did not start"
trap 'apache2 -d "$W" -f "$W/httpd.conf" -k stop 2>/dev/null || true; kill $pools 2>/dev/null || true' EXIT
base=http://127.0.0.1:$PORT
for i in $(seq 50); do curl -s -o /dev/null "$base/floor/hello" && break; sleep 0.1; done
for e in config consent scripts; do
	for i in $(seq 50); do [ -S "$W/run/$e.sock" ] && break; sleep 0.1; done
	[ -S "$W/run/$e.sock" ] || die "the $e pool did not start: $(tail -n 3 "$W/pools.log")"
done

SCENARIOS="floor config consent scripts proxy_config proxy_consent proxy_scripts"
url_of() {
	case $1 in
	floor) echo "$base/floor/hello" ;;
	proxy_*) echo "http://127.0.0.1:$PPORT$(path_of "${1#proxy_}")" ;;
	*) echo "$base$(path_of "$1")" ;;
	esac
}
path_of() { case $1 in config) echo "/functions/v1/config?site_key=bench" ;; *) echo "/functions/v1/$1" ;; esac; }
body_of() { case ${1#proxy_} in consent|scripts) echo "$top/bench/fixtures/${1#proxy_}.json" ;; *) echo "" ;; esac; }
expect_of() { case ${1#proxy_} in consent) echo 201 ;; *) echo 200 ;; esac; }
for s in $SCENARIOS; do
	b=$(body_of $s)
	if [ -n "$b" ]; then
		sed "s/@ID@/preflight-$s/g" "$b" > "$W/pre.json"
		code=$(curl -s -o "$W/pre.out" -w '%{http_code}' -H 'Origin: https://www.bench.example' \
		    -H 'CF-IPCountry: DE' --data-binary @"$W/pre.json" "$(url_of $s)")
	else
		code=$(curl -s -o "$W/pre.out" -w '%{http_code}' -H 'Origin: https://www.bench.example' "$(url_of $s)")
	fi
	[ "$code" = "$(expect_of $s)" ] || die "$s answered $code: $(head -c 300 "$W/pre.out")"
done

say "apache2 on 127.0.0.1:$PORT (mod_cgid floor; mod_fcgid, $PROCS processes per endpoint at most) and :$PPORT (mod_proxy_fcgi to pools of $POOL_CONFIG config, $POOL_WRITERS consent and $POOL_WRITERS scripts processes)${SYNC:+, CONSENT_SYNC=$SYNC}: $ROUNDS rounds of wrk ${SECS}s at 8 connections"
: > "$W/raw"
for r in $(seq "$ROUNDS"); do
	for s in $SCENARIOS; do
		out=$(BENCH_BODY=$(body_of $s) BENCH_SALT="a$r-$$" wrk -t2 -c8 -d"${SECS}s" --timeout 10s \
		    -s bench/wrk.lua "$(url_of $s)" 2>&1) || die "wrk failed on $s: $out"
		line=$(printf '%s\n' "$out" | grep '^RESULT ') || die "wrk gave no result on $s: $out"
		printf '%s\n' "$line" | sed 's/[a-z0-9_]*=//g' | awk -v s=$s \
		    '{ printf "%s %.1f %d\n", s, $2 * 1e6 / $3, $6 + $7 }' >> "$W/raw"
	done
done
# Medians per scenario; ratios to the floor's median.
awk -v order="$SCENARIOS" '{ v[$1] = v[$1] " " $2; e[$1] += $3 }
END {
	n = split(order, o, " ")
	for (i = 1; i <= n; i++) {
		s = o[i]; m = split(substr(v[s], 2), a, " ")
		for (x = 1; x <= m; x++) for (y = x + 1; y <= m; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
		med[s] = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	printf "| scenario | req/s c8 (median) | ratio to the Apache CGI floor | errors |\n|---|---:|---:|---:|\n"
	for (i = 1; i <= n; i++) {
		s = o[i]; name = s
		if (s ~ /^proxy_/) name = substr(s, 7) " (mod_proxy_fcgi, pool)"
		else if (s != "floor") name = s " (mod_fcgid)"
		printf "| %s | %.0f | %.2f | %d |\n", name, med[s], med[s] / med["floor"], e[s]
	}
}' "$W/raw"
