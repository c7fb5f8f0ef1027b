#!/bin/bash
# t0820-deploy-apache-proxy-fcgi.sh: the API through a real Apache on
# 127.0.0.1 (one foreground process, -X) with apache/consent-proxy-fcgi.conf
# as shipped: mod_proxy_fcgi to pools of processes started by the command
# line of apache/consent-fcgi@.service, as written there (spawn-fcgi makes
# each endpoint's socket, multiwatch keeps the processes on it).  Two
# ports: the vhost as shipped (the rate limit is checked there), and the
# same with requests not counted by mod_qos (the functional checks).
. "$(dirname "$0")/setup.sh"
server_test
. "$TOP/tests/deploy/lib.sh"

# The servers live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
what="Apache mod_proxy_fcgi deploy checks not run"
command -v apache2 >/dev/null 2>&1 || deploy_absent "apache2 is not installed (sh tools/deps.sh as root): $what"
mods=/usr/lib/apache2/modules
[ -f "$mods/mod_proxy_fcgi.so" ] || deploy_absent "mod_proxy_fcgi is not installed (package apache2): $what"
[ -f "$mods/mod_qos.so" ] || deploy_absent "mod_qos is not installed (package libapache2-mod-qos): $what"
libpcre=$(ldconfig -p 2>/dev/null | awk '/libpcre\.so\.3 /{ print $NF; exit }')
[ -n "$libpcre" ] || deploy_absent "libpcre.so.3 is not installed (package libpcre3), mod_qos cannot load: $what"
for t in spawn-fcgi multiwatch; do
	command -v $t >/dev/null 2>&1 || deploy_absent "$t is not installed (package $t): $what"
done

# The vhost's shipped lines are consent.conf's but for how the binaries
# run: a change to one that misses the other is caught here.
shared_lines() { # FILE: the lines both must have, comments and the handlers aside
	grep -vE '^[[:space:]]*(#|$)|ScriptAlias|^Alias /functions|Alias /admin/api|SetHandler|ProxyFCGIBackendType|^[[:space:]]*Options |SetEnv CONSENT|Define CONSENT_FCGI_RUN|Error "|^[[:space:]]*<Files "(config|consent|scripts|admin)">|^[[:space:]]*</Files>|^[[:space:]]*</?IfDefine|^[[:space:]]*</?IfModule' "$1"
}
if diff <(shared_lines "$TOP/apache/consent.conf") <(shared_lines "$TOP/apache/consent-proxy-fcgi.conf") > "$T/shared.diff"; then
	ok "consent-proxy-fcgi.conf has every access, limit and header line of consent.conf"
else
	notok "consent-proxy-fcgi.conf and consent.conf differ beyond how the binaries run: $(head -c 400 "$T/shared.diff" | tr '\n' ' ')"
fi

unit=$TOP/apache/consent-fcgi@.service
start=$(sed -n 's/^ExecStart=//p' "$unit")
case $start in
*'${RUN}/%i.sock'*'${PROCS}'*'${CGIBIN}/%i'*) ok "consent-fcgi@.service starts the pool with the socket, the count and the binary of its settings" ;;
*) notok "consent-fcgi@.service's ExecStart does not use RUN, PROCS and CGIBIN as this test expects: $start" ;;
esac
if command -v systemd-analyze >/dev/null 2>&1; then
	# It needs no running systemd; it warns of a bad line and still exits 0.
	mkdir -p "$T/unit"
	cp "$unit" "$T/unit/consent-fcgi@config.service"
	if systemd-analyze verify --man=no "$T/unit/consent-fcgi@config.service" > "$T/verify.log" 2>&1 &&
	    [ ! -s "$T/verify.log" ]; then
		ok "systemd-analyze verify accepts consent-fcgi@.service without a warning"
	else
		notok "systemd-analyze verify: $(head -n 3 "$T/verify.log" | tr '\n' ' ')"
	fi
else
	skip "systemd-analyze is not installed (package systemd): consent-fcgi@.service not verified"
fi

deploy_init
A=$T/apache
mkdir -p "$A/run"
cp "$db_file" "$T/www/old.db"

# As root, Apache and the pools (the unit's User= is Apache's) run as nobody.
apache_user

# start_pool ENDPOINT: the pool as the unit starts it, with this test's
# folders; POOL_PID is its pid, stopped at exit.
start_pool() { deploy_pool "$1" "$A/run" "$A/pools.log"; }
for e in config consent scripts admin; do
	[ -x "$T/cgi-bin/$e" ] || continue
	start_pool $e
	eval "pool_$e=$POOL_PID"
done
ok "the unit's command line started $(sed -n 's/^Environment=PROCS=//p' "$unit") processes of each endpoint on $A/run"

write_conf() { # LIMITED OPEN UNUSED
	apache_conf consent-proxy-fcgi.conf "$@" <<CONF
# What a2enmod proxy_fcgi does on Debian.
LoadModule proxy_module $mods/mod_proxy.so
LoadModule proxy_fcgi_module $mods/mod_proxy_fcgi.so
Define CONSENT_FCGI_RUN $A/run
CONF
}

launch apache2 3 1 "Apache mod_proxy_fcgi"
limited=${PORTS[0]} open=${PORTS[1]}
ok "$(apache2 -v | sed -n 's/^Server version: //p') with mod_proxy_fcgi serves the shipped config on 127.0.0.1:$limited and :$open"

api_checks "http://127.0.0.1:$open" "apache proxy_fcgi"
sdk_checks "http://127.0.0.1:$open" "apache proxy_fcgi"
admin_checks "http://127.0.0.1:$open" "apache proxy_fcgi"
leak_checks "http://127.0.0.1:$open" "apache proxy_fcgi" /old.db
fcgi_checks "http://127.0.0.1:$open" "apache proxy_fcgi" "$T/cgi-bin"

# The settings reach the processes as the unit's environment.
p=$(fcgi_pids "$T/cgi-bin/config" | head -n 1)
check grep -qxz CONSENT_FCGI_MAX_REQUESTS=1000000000 "/proc/${p:-0}/environ" \
    "apache proxy_fcgi: the unit's CONSENT_FCGI_MAX_REQUESTS is in the processes' environment"
check grep -qxz "CONSENT_DB=$CONSENT_DB" "/proc/${p:-0}/environ" \
    "apache proxy_fcgi: CONSENT_DB is in the processes' environment"

# A process told to stop (SIGTERM, as a process manager retires one)
# leaves between requests, multiwatch starts another on the same socket,
# and the requests sent meanwhile are all served.
before=$(fcgi_pids "$T/cgi-bin/config" | tr '\n' ' ')
kill -TERM "${before%% *}"
codes=""
for i in $(seq 10); do
	http -H "Origin: $SITE_ORIGIN" GET "http://127.0.0.1:$open/functions/v1/config?site_key=s1"
	codes="$codes$(cat "$T/status") "
done
for i in $(seq 20); do
	after=$(fcgi_pids "$T/cgi-bin/config" | tr '\n' ' ')
	[ "$(echo $after | wc -w)" = 2 ] && [ "$after" != "$before" ] && break
	sleep 0.1
done
check test "$codes" = "$(printf '200 %.0s' $(seq 10))" "apache proxy_fcgi: process ${before%% *} stopped: the 10 requests after all 200 (got $codes)"
case " $after" in
*" ${before%% *} "*) notok "apache proxy_fcgi: process ${before%% *} still runs after SIGTERM (processes: $after)" ;;
*) check test "$(echo $after | wc -w)" = 2 "apache proxy_fcgi: process ${before%% *} left and multiwatch keeps 2 (was $before, now $after)" ;;
esac

# Writers: 8 clients at once, 25 consents each, through Apache to the pool
# of 2 processes: every one 201 and stored (the processes commit the
# requests that wait together in one group).
rows=$(ctl consent export s1 | wc -l)
args=()
for i in $(seq 200); do
	[ "$i" -gt 1 ] && args+=(--next)
	args+=(-s --max-time 20 -o /dev/null -w '%{http_code}\n' -H 'Expect:' -H "Origin: $SITE_ORIGIN"
	    --data-binary "{\"site_key\":\"s1\",\"anon_id\":\"burst-$i\",\"categories\":{\"necessary\":true},\"event_type\":\"initial\"}"
	    "http://127.0.0.1:$open/functions/v1/consent")
done
codes=$(curl --parallel --parallel-max 8 "${args[@]}" 2>/dev/null | sort | uniq -c | tr -s ' \n' ' ')
check test "$codes" = " 200 201 " "apache proxy_fcgi: 200 consents from 8 clients at once: all 201 (got:$codes)"
check test "$(ctl consent export s1 | wc -l)" = $((rows + 200)) \
    "apache proxy_fcgi: all 200 stored ($(($(ctl consent export s1 | wc -l) - rows)) new entries)"

# Stopping a pool (systemctl stop: SIGTERM to multiwatch, which passes it
# on): every process leaves, Apache answers 503 for that endpoint only, and
# the same command line starts it again over the old socket file.
pool_stop_checks "http://127.0.0.1:$open" "apache proxy_fcgi" "$A/run" "$A/pools.log" "$pool_consent" 503

while_limited() {
	http GET "http://127.0.0.1:$limited/"
	expect_status 429 "apache proxy_fcgi: mod_qos refuses a limited client every path, not only the API"
}
rate_limit_checks "http://127.0.0.1:$limited" "apache proxy_fcgi" while_limited

log_checks "$A/error.log" "$A/pools.log" "apache proxy_fcgi"
