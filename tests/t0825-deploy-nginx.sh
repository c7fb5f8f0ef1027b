#!/bin/bash
# t0825-deploy-nginx.sh: the API through a real nginx (Debian's) on
# 127.0.0.1 with nginx/consent-http.conf and nginx/consent.conf as shipped:
# FastCGI to the pools of apache/consent-fcgi@.service started by its
# command line (spawn-fcgi makes each endpoint's socket, multiwatch keeps
# the processes on it), the SDK and the dashboard's folder as static files.
# nginx is a private instance (its own prefix, pid, temp folders and logs
# here), as nobody when the test runs as root.  Two server blocks: as
# shipped (the rate limit, the dashboard), and the same with the limit in
# dry-run mode (the functional checks).
# serial: nginx's bucket lets a request in every half second, so the rate limit's 22 requests must all fall within 400 ms
. "$(dirname "$0")/setup.sh"
server_test
. "$TOP/tests/deploy/lib.sh"

# The servers live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
what="nginx deploy checks not run"
command -v nginx >/dev/null 2>&1 || deploy_absent "nginx is not installed (sh tools/deps.sh as root): $what"
for t in spawn-fcgi multiwatch; do
	command -v $t >/dev/null 2>&1 || deploy_absent "$t is not installed (package $t): $what"
done

deploy_init
N=$T/nginx
mkdir -p "$N/run" "$N/tmp" "$T/admin/assets"
cp "$db_file" "$T/www/old.db"
# A stand-in for the dashboard's page: what nginx serves of its folder.
echo '<!doctype html><title>admin</title><script src="assets/app.js"></script>' > "$T/admin/index.html"
echo 'document.title = "admin";' > "$T/admin/assets/app.js"
echo 'secret' > "$T/admin/.env"
cp "$db_file" "$T/admin/copy.db"
cp "$T/dashboard/preview.html" "$T/admin/"

# As root, nginx and the pools (the unit's User= is nginx's) run as nobody.
A=$N apache_user
[ -n "$as_user" ] && chown -R "$(stat -c %u:%g "$N/run")" "$N"

# A user's server block: its own root, the three settings, the include.
server_block() { # PORT ADMIN [LINE...]
	local _port=$1 _admin=$2
	shift 2
	cat <<CONF
	server {
		listen 127.0.0.1:$_port;
		root $T/www;
		set \$consent_fcgi_run $N/run;
		set \$consent_sdk $T/sdk;
		set \$consent_admin $_admin;
CONF
	printf '\t\t%s\n' "$@"
	printf '\t\tinclude %s;\n\t}\n' "$TOP/nginx/consent.conf"
}

# A server block without one of the three settings is refused at start.
{
	echo 'daemon off;'
	nginx_http_block
	server_block "$(free_port)" "$T/admin" | grep -v 'consent_sdk '
	echo '}'
} > "$N/missing.conf"
# shellcheck disable=SC2086
if $as_user nginx -t -p "$N" -c "$N/missing.conf" > "$N/missing.log" 2>&1; then
	notok "nginx -t accepts a server block without \$consent_sdk"
else
	check grep -q 'unknown "consent_sdk" variable' "$N/missing.log" \
	    "nginx -t refuses a server block without \$consent_sdk, naming it ($(grep -o 'unknown[^,]*' "$N/missing.log" | head -n 1))"
fi

for e in config consent scripts admin; do
	[ -x "$T/cgi-bin/$e" ] || continue
	deploy_pool $e "$N/run" "$N/pools.log"
	eval "pool_$e=$POOL_PID"
done
ok "the unit's command line started $(sed -n 's/^Environment=PROCS=//p' "$TOP/apache/consent-fcgi@.service") processes of each endpoint on $N/run"

write_conf() { # LIMITED OPEN
	{
		echo 'daemon off;'
		nginx_http_block
		server_block "$1" "$T/admin"
		server_block "$2" "$T/no-admin" \
		    '# Test only: the limit counts but refuses nothing, for the functional checks.' \
		    'limit_req_dry_run on;'
		echo '}'
	} > "$N/nginx.conf"
}

launch nginx 2 1 "nginx"
limited=${PORTS[0]} open=${PORTS[1]}
ok "$(nginx -v 2>&1 | sed 's/^nginx version: //') serves the shipped config on 127.0.0.1:$limited and :$open"

# First, on a fresh bucket: the limit as shipped.  The 22nd request's answer
# (a POST to consent) is what the checks read.
while_limited() {
	expect_json '.' '{"error":"Too many requests"}' "nginx: 429 body is the API's error shape"
	expect_header Content-Type "application/json; charset=utf-8" "nginx: 429 is JSON"
	expect_header Access-Control-Allow-Origin "$SITE_ORIGIN" "nginx: 429 echoes a valid Origin"
	expect_header Vary "Origin" "nginx: 429 varies on Origin"
	expect_header Access-Control-Allow-Methods "GET, POST, OPTIONS" "nginx: 429 allows the API's methods"
	expect_header Access-Control-Allow-Headers "authorization, x-client-info, apikey, content-type" "nginx: 429 allows the API's headers"
	expect_header X-Content-Type-Options "nosniff" "nginx: 429 is nosniff"
	http GET "http://127.0.0.1:$limited/index.html"
	expect_status 200 "nginx: a limited client still gets pages outside /functions/v1/"
	http GET "http://127.0.0.1:$limited/sdk/consent.js"
	expect_status 200 "nginx: a limited client still gets the SDK"
}
RATE_SPAN_MS=400 rate_limit_checks "http://127.0.0.1:$limited" "nginx" while_limited

api_checks "http://127.0.0.1:$open" "nginx"
sdk_checks "http://127.0.0.1:$limited" "nginx"
leak_checks "http://127.0.0.1:$open" "nginx" /old.db /sdk/consent.js/x /sdk/../www/data/consent.db \
    /functions/v1/config/ /functions/v1/config%2Fx /admin/.env /admin/copy.db /admin/assets/
fcgi_checks "http://127.0.0.1:$open" "nginx" "$T/cgi-bin"

# The dashboard's folder: its files as they are, with the page's headers;
# a server whose folder is absent has no /admin/.
http GET "http://127.0.0.1:$limited/admin/"
expect_status 200 "nginx: GET /admin/: 200"
check cmp -s "$T/body" "$T/admin/index.html" "nginx: /admin/ is the folder's index.html, byte for byte"
expect_header Content-Type "text/html" "nginx: /admin/ is text/html"
csp=$(header Content-Security-Policy)
case $csp in
*unsafe-*|'') notok "nginx: /admin/ has a strict CSP: got '$csp'" ;;
*"frame-ancestors 'none'"*) ok "nginx: /admin/ has a strict CSP ($csp)" ;;
*) notok "nginx: /admin/'s CSP forbids framing: got '$csp'" ;;
esac
expect_header X-Content-Type-Options "nosniff" "nginx: /admin/ is nosniff"
expect_header Referrer-Policy "no-referrer" "nginx: /admin/ sends no referrer"
http GET "http://127.0.0.1:$limited/admin/assets/app.js"
expect_status 200 "nginx: GET /admin/assets/app.js: 200"
check cmp -s "$T/body" "$T/admin/assets/app.js" "nginx: the dashboard's script, byte for byte"
http GET "http://127.0.0.1:$open/admin/"
expect_status 404 "nginx: no dashboard folder: /admin/ is 404"
admin_checks "http://127.0.0.1:$limited" "nginx" "$T/admin"

# More of the endpoints' answers through nginx, byte for byte the binary's
# as CGI: status, body and every header the binary writes (nginx adds only
# Server, Date and Connection).
same_as_cgi() { # METHOD ENDPOINT QUERY [BODYFILE]
	local _h=(-H "Origin: $SITE_ORIGIN") _d=""
	[ -n "${4:-}" ] && _h+=(-H "Content-Type: application/json" -d "$4") _d=$(cat "$4")
	http "${_h[@]}" "$1" "http://127.0.0.1:$open/functions/v1/$2${3:+?$3}"
	grep -viE '^(server|date|connection|keep-alive):|^$' "$T/headers" | sort > "$T/h.nginx"
	cp "$T/body" "$T/b.nginx"
	cp "$T/status" "$T/s.nginx"
	cgi "$1" "$2" "$3" "$_d"
	grep -viE '^status:|^$' "$T/headers" | sort > "$T/h.cgi"
	if [ "$(cat "$T/s.nginx")" = "$(cat "$T/status")" ] && cmp -s "$T/b.nginx" "$T/body" && cmp -s "$T/h.nginx" "$T/h.cgi"; then
		ok "nginx: $1 $2${3:+?$3}: status $(cat "$T/status"), headers and body as the binary gives them as CGI"
	else
		notok "nginx: $1 $2${3:+?$3}: differs from CGI: status $(cat "$T/s.nginx")/$(cat "$T/status"), $(diff "$T/h.nginx" "$T/h.cgi" | tr '\n' ' ') $(cmp "$T/b.nginx" "$T/body" 2>&1)"
	fi
}
same_as_cgi GET config "site_key=s1&lang=en"
same_as_cgi GET config "site_key=nosuch"
same_as_cgi POST config "site_key=s1" "$T/consent.json"
same_as_cgi POST consent "" "$T/bad.json"
same_as_cgi POST scripts "sync_id=not-a-uuid" "$T/scripts.json"

# A chunked body: nginx reads it whole and passes its length.
rows=$(ctl consent export s1 | wc -l)
curl -s --max-time 10 -o "$T/body" -w '%{http_code}' -H 'Expect:' -H "Origin: $SITE_ORIGIN" \
    -H 'Transfer-Encoding: chunked' --data-binary "@$T/consent.json" \
    "http://127.0.0.1:$open/functions/v1/consent" > "$T/status"
expect_status 201 "nginx: POST consent with a chunked body: 201"
check test "$(ctl consent export s1 | wc -l)" = $((rows + 1)) "nginx: the chunked consent was stored"

# Stopping a pool (systemctl stop): every process leaves, nginx answers 502
# for that endpoint only, and the same command line starts it again over
# the old socket file.
pool_stop_checks "http://127.0.0.1:$open" "nginx" "$N/run" "$N/pools.log" "$pool_consent" 502

# The bucket, whatever the machine's speed: 40 requests on one connection,
# the last with an Origin that is no origin.  A bucket of 20 that drains 2
# a second lets at most 20, plus one per half second the 40 took, through;
# fewer, as the checks before left it part full.  The refusal answers that
# Origin with "*".
args=()
for i in $(seq 39); do
	args+=(-o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$limited/functions/v1/config?site_key=s1")
done
t0=$(date +%s%N)
curl -s --max-time 20 -H "Origin: $SITE_ORIGIN" "${args[@]}" \
    --next -s --max-time 10 -H 'Origin: https://evil.example/"><x' -D "$T/headers.raw" -o "$T/body" -w '%{http_code}' \
    "http://127.0.0.1:$limited/functions/v1/config?site_key=s1" > "$T/codes"
ms=$((($(date +%s%N) - t0) / 1000000))
passed=$(grep -c '^200' "$T/codes")
refused=$(grep -c '^429' "$T/codes")
check test "$((passed + refused))" = 40 "nginx: 40 requests on one connection: each 200 or 429 ($passed and $refused)"
check test "$passed" -le $((21 + ms / 500)) "nginx: 40 requests in $ms ms: $passed let through, at most 20 and one per half second ($((21 + ms / 500)))"
tail -c 3 "$T/codes" > "$T/status"
tr -d '\r' < "$T/headers.raw" | sed '1d' > "$T/headers"
if [ "$(cat "$T/status")" = 429 ]; then
	expect_header Access-Control-Allow-Origin "*" "nginx: 429 answers an Origin that is no origin with *, never echoes it"
else
	skip "nginx: the bucket let the 40th request in ($ms ms): its refusal's Origin not checked"
fi

log_checks "$N/error.log" "$N/pools.log" "nginx"
check test -z "$(grep -E '\[(alert|emerg|crit)\]' "$N/error.log")" "nginx: no alert in its error log"
