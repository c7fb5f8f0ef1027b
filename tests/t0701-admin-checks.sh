#!/bin/bash
# t0701-admin-checks.sh: the checks of every request (docs/admin-api.md
# "Every request"), walked over every route the document lists: no session
# 401; a change without the CSRF token, with a wrong one, from another site
# or origin 403 and nothing changed; a form or text body 415; a viewer's
# write 403; ADMIN.md 4's headers on every answer; paths and methods.
. "$(dirname "$0")/setup.sh"
. "$TOP/tests/admin.sh"

DOC=$TOP/docs/admin-api.md
store_is_postgres && export CONSENT_DATA_DIR=$T
PW=Owner-pass-9x7kq!
admin_setup owner "$PW" || exit 1
OWNER_COOKIE=$COOKIE OWNER_CSRF=$CSRF
ctl site add demo --name Demo --domain demo.example > /dev/null
api POST users '{"username":"vi","password":"Viewer-pass-4j8w","roles":{"demo":"viewer"}}'
expect_status 201 "a viewer of the site is added"
sign_in vi Viewer-pass-4j8w
VI_COOKIE=$COOKIE VI_CSRF=$CSRF
COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF

# The routes: "METHOD path" and the role column of each table row, a row
# of two (`POST sites/{key}/pause`, `.../resume`) as two.
awk -F'|' '/^\| `(GET|POST|PUT|PATCH|DELETE) / {
	role = $3; gsub(/ /, "", role)
	n = split($2, parts, /`, `/)
	for (i = 1; i <= n; i++) {
		r = parts[i]; gsub(/`/, "", r); sub(/^ +/, "", r); sub(/ +$/, "", r)
		if (r ~ /^\.\.\.\//) { sub(/^\.\.\.\//, "", r); r = m " " base "/" r }
		else { m = r; sub(/ .*/, "", m); base = r; sub(/^[A-Z]+ /, "", base); sub(/\/[^\/]*$/, "", base) }
		print r "\t" role
	}
}' "$DOC" > "$T/routes"
check test "$(wc -l < "$T/routes")" -ge 28 "docs/admin-api.md lists the routes ($(wc -l < "$T/routes"))"

fill() { # a path with its placeholders filled
	echo "$1" | sed -e 's/{key}/demo/g' -e 's/{name}/vi/g' -e 's/{id}/nosuchsession/g' -e 's/{version}/1/g'
}

# What a change would change: the accounts, the sites and the audit trail
# (every change is recorded in it).
state() {
	COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF api GET users
	jq -c . "$T/body" > "$T/state"
	COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF api GET "audit?limit=200"
	jq -c '[.entries[] | .id]' "$T/body" >> "$T/state"
	ctl site list --json >> "$T/state" 2>&1
	cat "$T/state"
}

headers_ok=1
note_headers() {
	if [ "$(header Cache-Control)" != no-store ] ||
	    [ "$(header Content-Security-Policy)" != "default-src 'none'; frame-ancestors 'none'" ] ||
	    [ "$(header X-Content-Type-Options)" != nosniff ] ||
	    [ "$(header Referrer-Policy)" != no-referrer ] ||
	    [ "$(header Content-Type)" != "application/json; charset=utf-8" ]; then
		[ "$headers_ok" = 1 ] && notok "ADMIN.md 4's headers are missing on $1 (status $(cat "$T/status"))"
		headers_ok=0
	fi
}

BODY='{"username":"zz","password":"Another-pass-5r8zw","roles":{},"domain":"x.example","document":{}}'
before=$(state)
while IFS='	' read -r route role; do
	m=${route%% *} p=$(fill "${route#* }")
	# Every documented route is routed: anything but "Not found".
	COOKIE= CSRF= api "$m" "$p" '{}'
	if [ "$(cat "$T/status")" = 404 ] && [ "$(jq -r .error "$T/body")" = "Not found" ]; then
		case $route in *setup) ;; *) notok "$route: documented but not routed" ;; esac
	fi
	if [ "$role" != - ]; then
		COOKIE= CSRF= api "$m" "$p" '{}'
		note_headers "$route without a session"
		expect_error 401 "Not signed in" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&$route without a session: |" "$T/r"
	fi
	case $m in GET) continue ;; esac
	[ "$role" = - ] && continue
	for variant in no-csrf wrong-csrf cross-site foreign-origin; do
		case $variant in
		no-csrf) COOKIE=$OWNER_COOKIE CSRF= api "$m" "$p" "$BODY" ;;
		wrong-csrf) COOKIE=$OWNER_COOKIE CSRF=$VI_CSRF api "$m" "$p" "$BODY" ;;
		cross-site) COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF api HTTP_SEC_FETCH_SITE=cross-site "$m" "$p" "$BODY" ;;
		foreign-origin) COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF api HTTP_ORIGIN=https://evil.example "$m" "$p" "$BODY" ;;
		esac
		note_headers "$route $variant"
		case $variant in
		*csrf) want="CSRF check failed" ;;
		*) want="Cross-site request refused" ;;
		esac
		expect_error 403 "$want" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&$route $variant: |" "$T/r"
	done
	# A viewer's write, with a valid session and token: 403 (ADMIN.md 5).
	case $role in
	E*|O*|\**)
		COOKIE=$VI_COOKIE CSRF=$VI_CSRF api "$m" "$p" "$BODY"
		note_headers "$route by a viewer"
		expect_error 403 "Forbidden" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&$route by a viewer: |" "$T/r"
		;;
	esac
	for ct in application/x-www-form-urlencoded text/plain multipart/form-data; do
		COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF api CONTENT_TYPE=$ct "$m" "$p" "$BODY"
		note_headers "$route as $ct"
		expect_error 415 "Content-Type must be application/json" > "$T/r"
		sed "s|^\(not \)\{0,1\}ok - |&$route as $ct: |" "$T/r"
	done
done < "$T/routes"
after=$(state)
check test "$before" = "$after" "none of the refused requests changed anything (accounts, sites, audit trail)"

# ADMIN.md 4-5: a site the account has no role on does not exist for it:
# on every site route, the viewer of demo gets for "other" (which exists)
# byte for byte the answer it gets for a site that does not.
ctl site add other --name Other --domain other.example > /dev/null
same=0 routes=0
while IFS='	' read -r route role; do
	case $route in *'{key}'*) ;; *) continue ;; esac
	routes=$((routes + 1))
	m=${route%% *} p=${route#* }
	for k in other nosuch; do
		COOKIE=$VI_COOKIE CSRF=$VI_CSRF api "$m" "$(fill "${p//\{key\}/$k}")" "$BODY"
		cat "$T/status" "$T/headers" "$T/body" > "$T/answer-$k"
	done
	if cmp -s "$T/answer-other" "$T/answer-nosuch" && [ "$(cat "$T/status")" = 404 ]; then
		same=$((same + 1))
	else
		notok "$route: another site's answer is not a missing site's: $(diff "$T/answer-other" "$T/answer-nosuch" | tr '\n' '|')"
	fi
done < "$T/routes"
check test "$same" = "$routes" "every site route ($same of $routes) answers the same 404, byte for byte, for a site without a role and a missing one"
COOKIE=$VI_COOKIE CSRF=$VI_CSRF api GET "audit?site=other"
cat "$T/status" "$T/headers" "$T/body" > "$T/answer-other"
COOKIE=$VI_COOKIE CSRF=$VI_CSRF api GET "audit?site=nosuch"
cat "$T/status" "$T/headers" "$T/body" > "$T/answer-nosuch"
check cmp -s "$T/answer-other" "$T/answer-nosuch" "and so does GET audit?site="

# One cookie, one session: a second __Host-consent_admin (even the same
# value) is no session; a cookie header of another name's 8 KB neither.
api HTTP_COOKIE="__Host-consent_admin=$OWNER_COOKIE; __Host-consent_admin=$OWNER_COOKIE" GET session
expect_error 401 "Not signed in" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&the cookie twice: |" "$T/r"
api HTTP_COOKIE="__Host-consent_admin=$VI_COOKIE; __Host-consent_admin=$OWNER_COOKIE" GET session
expect_error 401 "Not signed in" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&two sessions' cookies: |" "$T/r"
api HTTP_COOKIE="consent_admin=$OWNER_COOKIE" GET session
expect_error 401 "Not signed in" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&the name without __Host-: |" "$T/r"
api HTTP_COOKIE="a=$(head -c 9000 /dev/zero | tr '\0' a); __Host-consent_admin=$OWNER_COOKIE" GET session
expect_error 401 "Not signed in" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&an oversized Cookie header: |" "$T/r"
api HTTP_X_CSRF_TOKEN="$OWNER_COOKIE" POST session/reauth '{"password":"x"}'
expect_error 403 "CSRF check failed" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&the cookie's value as the CSRF token: |" "$T/r"
# FastCGI: a request keeps nothing of the one before it (the owner's
# session above, then none).
api GET session
expect_status 200 "the owner's session"
COOKIE= CSRF= api GET session
expect_error 401 "Not signed in" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&the next request without a cookie: |" "$T/r"
COOKIE= CSRF= api GET users
expect_error 401 "Not signed in" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&GET users without a cookie, after the owner's: |" "$T/r"

# Sign-in and setup have no session: the same content-type and same-origin checks.
COOKIE= CSRF= api HTTP_SEC_FETCH_SITE=same-site POST session "{\"username\":\"owner\",\"password\":\"$PW\"}"
expect_error 403 "Cross-site request refused"
COOKIE= CSRF= api CONTENT_TYPE=text/plain POST session "{\"username\":\"owner\",\"password\":\"$PW\"}"
expect_error 415 "Content-Type must be application/json"
COOKIE= CSRF= api HTTP_ORIGIN=null POST session "{\"username\":\"owner\",\"password\":\"$PW\"}"
expect_error 403 "Cross-site request refused"
COOKIE= CSRF= api HTTP_ORIGIN=http://$ADMIN_HOST POST session "{\"username\":\"owner\",\"password\":\"$PW\"}"
expect_error 403 "Cross-site request refused"
COOKIE= CSRF= api HTTP_HOST='dash.example.test/x' POST session "{\"username\":\"owner\",\"password\":\"$PW\"}"
expect_error 403 "Cross-site request refused"
COOKIE= CSRF= api HTTPS= REQUEST_SCHEME=http HTTP_ORIGIN=http://$ADMIN_HOST POST session '{"username":"owner","password":"x"}'
expect_error 401 "Invalid credentials"
ok "a plain-HTTP dashboard's own origin is http:// + HTTP_HOST (above)"

# The order (ADMIN.md 4): not signed in (401) before CSRF, CSRF (403)
# before the role (403 or 404).
COOKIE= CSRF=$VI_CSRF api POST users '{"username":"zz","password":"Another-pass-5r8zw","roles":{}}'
expect_error 401 "Not signed in" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&no session, a CSRF token: |" "$T/r"
COOKIE=$VI_COOKIE CSRF= api POST users '{"username":"zz","password":"Another-pass-5r8zw","roles":{}}'
expect_error 403 "CSRF check failed" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&a viewer's write without the token: |" "$T/r"
COOKIE=$VI_COOKIE CSRF= api POST sites/nosuch/pause '{}'
expect_error 403 "CSRF check failed" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&a missing site without the token: |" "$T/r"

# A viewer's writes.
COOKIE=$VI_COOKIE CSRF=$VI_CSRF
for r in "POST users" "PATCH users/owner" "DELETE users/owner"; do
	api ${r% *} "${r#* }" '{"roles":{}}'
	expect_error 403 "Forbidden" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&a viewer's $r: |" "$T/r"
done
COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF

# Paths and methods.
for p in "" nosuchroute "session/" "/session" "session//x" "../session" "./session" "session/%2e" \
    "$(head -c 600 /dev/zero | tr '\0' a)" "a/b/c/d/e/f/g/h/i" "users/a b" "users/\$(id)"; do
	api GET "$p"
	expect_error 404 "Not found" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&path '${p:0:40}': |" "$T/r"
done
api PUT session '{}'
expect_error 405 "Method not allowed"
expect_header Allow "POST, GET, DELETE" "405 names the route's methods in Allow"
note_headers "405"
api HEAD session
expect_status 405 "HEAD is no method of the API"
api OPTIONS users
expect_status 405 "nor OPTIONS (no CORS: the page is same-origin)"

# Bodies.
api POST session/reauth '[1,2]'
expect_error 400 "Invalid JSON body"
api POST session/reauth '{"password":"x"} trailing'
expect_error 400 "Invalid JSON body"
api POST session/reauth "{\"password\":\"$(head -c 70000 /dev/zero | tr '\0' a)\"}"
expect_error 413 "Payload too large"
api CONTENT_TYPE="application/json; charset=utf-8" POST session/reauth '{"password":"wrong-password-xyz"}'
expect_error 401 "Invalid credentials"
api CONTENT_TYPE="application/jsonx" POST session/reauth '{"password":"x"}'
expect_error 415 "Content-Type must be application/json"
api POST users '{"username":"a","username":"b","password":"x","roles":{}}'
expect_status 400 "a member twice is refused"
api POST session/reauth "{\"password\":$(printf '[%.0s' $(seq 3000))}"
expect_error 400 "Invalid JSON body" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&3,000 nested arrays: |" "$T/r"
api POST session/reauth '{"password":"x","password":"wrong-password-xyz"}'
expect_status 400 "a credential twice is refused, whichever would be read"

check test "$headers_ok" = 1 "every answer above had ADMIN.md 4's headers"
