#!/bin/bash
# t0940-hostile.sh: hostile input through all three binaries (issue 4;
# CONTRACT 7: nothing a client sends makes a binary crash or a 500).
#
# Each input is one request; each must get the status listed (a client error
# where the input is wrong), a reply whose header lines are only the fixed
# set, each ending in CRLF, with Access-Control-Allow-Origin "*" or the
# request's well-formed Origin, a JSON body (an {"error"} for 4xx), nothing
# on stderr, and a zero exit (the cgi helper reports a crash, a sanitizer or
# valgrind report).  The last line gives the number of inputs tried.
. "$(dirname "$0")/setup.sh"

ctl site add s1 --name S1 --domain example.com --tier paid >/dev/null
sync=$(ctl sync start s1)

# CGI_EXTRA=(VAR=value...) and CGI_STDIN=FILE (setup.sh): variables that
# win over the helper's and may hold CR and LF, a body of any bytes.
inputs=0 failed=0
show() { printf '%q' "$1" | head -c "${2:-24}"; }   # a value on one line, shortened
ALLOWED='^(Status|Content-Type|Cache-Control|Access-Control-Allow-Origin|Vary|Access-Control-Allow-Methods|Access-Control-Allow-Headers|Access-Control-Max-Age|X-Content-Type-Options|Content-Length|Allow)$'

# try STATUSES DESC [VAR=value]... METHOD ENDPOINT [QUERY [BODY]]
# STATUSES: one status or several joined by |.
try() {
	local want=$1 desc=$2 got why=
	shift 2
	inputs=$((inputs + 1))
	cgi "$@"    # prints "not ok" itself when the binary exits non-zero
	read -r got < "$T/status" || got=none
	case "|$want|" in *"|$got|"*) ;; *) why="$why status $got, want $want;" ;; esac
	# The header block: lines up to the first empty one, each ending in CR,
	# each a header of the fixed set, once.  Then the CORS header's value.
	local checked acao
	checked=$(awk -v allowed="$ALLOWED" '
		/^\r$/ { exit }
		!/\r$/ { printf " header line without CRLF: %.60s;", $0; next }
		{ sub(/\r$/, ""); i = index($0, ":"); name = substr($0, 1, i - 1)
		  if (i < 2 || name !~ allowed) printf " unexpected header line: %.60s;", $0
		  if (seen[name]++) printf " header %s twice;", name
		  if (name == "Access-Control-Allow-Origin") acao = substr($0, i + 2) }
		END { printf "\n%s", acao }' "$T/out")
	why="$why${checked%%$'\n'*}"
	acao=${checked#*$'\n'}
	if [ "$acao" != "*" ] && { [ "$acao" != "$ORIGIN" ] ||
	    ! [[ $acao =~ ^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$ ]]; }; then
		why="$why Access-Control-Allow-Origin is $(show "$acao" 60);"
	fi
	# A body unless 204 or HEAD: a JSON object, with an error message for 4xx.
	if [ "$got" != 204 ] && { [ -s "$T/body" ] || [ "$got" -ge 400 ] 2>/dev/null; } &&
	    ! jq -e --argjson s "${got:-0}" 'type == "object" and ($s < 400 or (.error | type == "string"))' "$T/body" >/dev/null 2>&1; then
		why="$why body is not a JSON object with the right members: $(head -c 60 "$T/body");"
	fi
	if [ "$got" != 500 ] && [ -s "$T/stderr" ]; then
		why="$why stderr: $(head -c 100 "$T/stderr" | tr '\n' ' ');"
	fi
	if [ -z "$why" ]; then ok "$desc: $got"; else failed=$((failed + 1)); notok "$desc:$why"; fi
}

# raw STATUSES DESC FILE ENDPOINT: POST the file's bytes.
raw() {
	CGI_STDIN=$3
	CGI_EXTRA=(CONTENT_LENGTH="$(wc -c < "$3" | tr -d ' ')")
	try "$1" "$2" POST "$4" "" ""
	CGI_STDIN= CGI_EXTRA=()
}

# Bodies that pass every check, to vary one member at a time.
C='"site_key":"s1","anon_id":"v","categories":{"analytics":true},"event_type":"initial"'
S='"site_key":"s1","page_url":"https://example.com/p","timestamp":1763800000000,"scripts":[{"domain":"cdn.example.net","blocked":false}]'
consent() { try "$1" "consent: $2" POST consent "" "$3"; }
scripts() { try "$1" "scripts: $2" POST scripts "${4-}" "$3"; }
try 201 "consent: the valid body" POST consent "" "{$C}"
try 200 "scripts: the valid body" POST scripts "" "{$S}"
try 200 "config: the valid request" GET config "site_key=s1"

# --- REQUEST_METHOD --------------------------------------------------------------
for ep in config consent scripts; do
	for m in "" post PUT "POST " $'POST\r\nX: y' "$(printf 'M%.0s' $(seq 8192))"; do
		try 405 "$ep: REQUEST_METHOD $(show "$m" 16)" "$m" "$ep" "site_key=s1" "{$C}"
	done
	try 405 "$ep: REQUEST_METHOD with a control byte" "$(printf 'PO\001ST')" "$ep" "" ""
	try 204 "$ep: OPTIONS with a garbage body" OPTIONS "$ep" "%" "$(printf '\377\376{')"
done
try 405 "consent: HEAD" HEAD consent "" "{$C}"
try 200 "config: HEAD" HEAD config "site_key=s1"

# --- CONTENT_LENGTH ----------------------------------------------------------------
for ep in consent scripts; do
	b="{$C}"
	[ "$ep" = scripts ] && b="{$S}"
	cls=(-1 " 12" "12 " "$(printf '9%.0s' $(seq 100))")
	[ "$ep" = consent ] && cls+=(-0 "1 2" "+12" 0x10 1e3 12abc "$(printf '\t')12" "$(printf '12\n')")
	for cl in "${cls[@]}"; do
		case $cl in 999*) want=413 ;; *) want=400 ;; esac
		try "$want" "$ep: CONTENT_LENGTH $(show "$cl" 16)" CONTENT_LENGTH="$cl" POST "$ep" "" "$b"
	done
	try 413 "$ep: CONTENT_LENGTH 65537" CONTENT_LENGTH=65537 POST "$ep" "" "$b"
	try 413 "$ep: CONTENT_LENGTH 18446744073709551616" CONTENT_LENGTH=18446744073709551616 POST "$ep" "" "$b"
	try 400 "$ep: CONTENT_LENGTH 65536, body shorter" CONTENT_LENGTH=65536 POST "$ep" "" "$b"
	try 400 "$ep: CONTENT_LENGTH 0 with a body" CONTENT_LENGTH=0 POST "$ep" "" "$b"
	try 400 "$ep: CONTENT_LENGTH one short" CONTENT_LENGTH=$((${#b} - 1)) POST "$ep" "" "$b"
	try "201|200" "$ep: CONTENT_LENGTH with leading zeros" CONTENT_LENGTH="000${#b}" POST "$ep" "" "$b"
done

# --- query strings -------------------------------------------------------------------
q8k() { # PREFIX TOTAL: PREFIX padded with a harmless parameter to TOTAL bytes
	local pad=$(($2 - ${#1} - 3))
	printf '%s&x=%s' "$1" "$(head -c "$pad" /dev/zero | tr '\0' 'a')"
}
for q in "site_key=s1%00" "site_key=%00s1" "site_key=%" "site_key=s1%" "site_key=s1%4" "site_key=%zz" \
    "%" "%%" "site_key=s1%0d%0aX:%20y" "site_key=s%31%ff" "site_key=" "site_key" "=s1" "&&&" \
    "site_key=$(printf 's%.0s' $(seq 65))" "site_key=$(head -c 8200 /dev/zero | tr '\0' 's')" \
    "$(q8k x=1 8193)&site_key=s1" "$(printf 'site_key=s1\001')"; do
	try 400 "config: query $(show "$q") (${#q} bytes)" GET config "$q"
done
for q in "site_key=s1&region=%00" "site_key=s1&region=%" "site_key=s1&lang=%" "site_key=s1&lang=%ff%fe" \
    "site_key=s1&region=%c0%af" "site_key=s1&site_key=evil" "site_key=s1&lang=$(printf 'de-%.0s' $(seq 2000))" \
    "site_key=s1&&&=&x" "$(q8k site_key=s1 8192)"; do
	try 200 "config: query $(show "$q") (${#q} bytes)" GET config "$q"
done
try 404 "config: well-formed unknown site_key of 64" GET config "site_key=$(printf 'k%.0s' $(seq 64))"
for q in "sync_id=%00" "sync_id=%" "sync_id=$sync%00" "sync_id=$(printf 'a%.0s' $(seq 8180))" "sync_id=%ff"; do
	scripts 400 "query $(show "$q") (${#q} bytes)" "{$S}" "$q"
done
scripts 200 "query of 8192 bytes" "{$S}" "$(q8k "sync_id=$sync" 8192)"
consent 201 "query with %00 and a lone % (ignored)" "{$C}"
try 201 "consent: query ignored" POST consent "a=%00&%&b=%zz" "{$C}"

# --- NUL bytes in the body ---------------------------------------------------------------
for ep in consent scripts; do
	b="{$C}"
	[ "$ep" = scripts ] && b="{$S}"
	printf '%s\0' "$b" > "$T/nul1"
	printf '\0%s' "$b" > "$T/nul2"
	printf '%s' "$b" | sed 's/"site_key":"s1"/"site_key":"s1\x00"/' > "$T/nul3"
	printf '%s' "$b" | sed 's/"s1"/"s1","x\x00y":1/' > "$T/nul4"
	head -c 4096 /dev/zero > "$T/nul5"
	printf '%s' "$b" | sed 's/"site_key":"s1"/"site_key":"s1\\u0000"/' > "$T/nul6"
	for f in 1 2 3 4 5 6; do raw 400 "$ep: NUL bytes, case $f" "$T/nul$f" "$ep"; done
done

# --- invalid UTF-8 in every string field ---------------------------------------------------
# The first three kinds go into every field, the others into a few.
BAD=($'\xff' $'\xc0\xaf' $'\xed\xa0\x80' $'\x80' $'\xe2\x82' $'\xf4\x90\x80\x80' $'\xf8\x88\x80\x80\x80' $'a\xc3')
names=(ff overlong surrogate lone-continuation truncated above-10FFFF 5-byte cut-2-byte)
for i in "${!BAD[@]}"; do
	x=${BAD[$i]}
	fields="anon_id page_url"
	[ "$i" -lt 3 ] && fields="site_key anon_id event_type event_action region consent_model regulation interaction
	    banner_position page_url sdk_version language resolved_language"
	for f in $fields; do
		case $f in
		site_key | anon_id | event_type) b="{$(printf '%s' "$C" | sed "s/\"$f\":\"[^\"]*\"/\"$f\":\"v$x\"/")}" ;;
		*) b="{$C,\"$f\":\"v$x\"}" ;;
		esac
		consent 400 "invalid UTF-8 (${names[$i]}) in $f" "$b"
	done
	consent 400 "invalid UTF-8 (${names[$i]}) in a category id" "{\"site_key\":\"s1\",\"anon_id\":\"v\",\"categories\":{\"a$x\":true},\"event_type\":\"initial\"}"
	consent 201 "invalid UTF-8 (${names[$i]}) in an unknown field (ignored)" "{$C,\"other\":\"v$x\"}"
	scripts 400 "invalid UTF-8 (${names[$i]}) in domain" "{$(printf '%s' "$S" | sed "s/cdn.example.net/cdn$x.example.net/")}"
	[ "$i" -lt 3 ] || continue
	scripts 400 "invalid UTF-8 (${names[$i]}) in site_key" "{$(printf '%s' "$S" | sed "s/\"s1\"/\"s1$x\"/")}"
	scripts 400 "invalid UTF-8 (${names[$i]}) in page_url" "{$(printf '%s' "$S" | sed "s|/p\"|/p$x\"|")}"
	scripts 400 "invalid UTF-8 (${names[$i]}) in error" "{$S,\"error\":\"e$x\"}"
	scripts 400 "invalid UTF-8 (${names[$i]}) in sync_id" "{$S,\"sync_id\":\"$sync$x\"}"
	scripts 400 "invalid UTF-8 (${names[$i]}) in src" "{$(printf '%s' "$S" | sed "s|\"domain\"|\"src\":\"https://x/$x\",\"domain\"|")}"
	scripts 400 "invalid UTF-8 (${names[$i]}) in category" "{$(printf '%s' "$S" | sed "s|\"domain\"|\"category\":\"c$x\",\"domain\"|")}"
done
try 201 "consent: invalid UTF-8 in User-Agent" HTTP_USER_AGENT=$'Mozilla/5.0 \xff\xc0\xaf' POST consent "" "{$C}"
try 200 "config: invalid UTF-8 in Accept-Language" HTTP_ACCEPT_LANGUAGE=$'de\xff,\xc0\xaf;q=0.5' GET config "site_key=s1"
ORIGIN=$'https://ex\xc3\xa4mple.com' try 403 "config: invalid host bytes in Origin" GET config "site_key=s1"
ORIGIN=$'https://example.com\xff' try 403 "consent: invalid UTF-8 in Origin" POST consent "" "{$C}"

# --- deeply nested JSON (cJSON's limit is 1000 levels) ---------------------------------------
nest() { # DEPTH: DEPTH arrays inside each other
	head -c "$1" /dev/zero | tr '\0' '['
	head -c "$1" /dev/zero | tr '\0' ']'
}
# Levels count the body object itself: an unknown member nested to N-1 more.
for d in 10 999 1000 1001 30000 100000; do
	case $d in 1001 | 30000) want=400 ;; 100000) want=413 ;; *) want= ;; esac
	printf '{%s,"x":%s}' "$C" "$(nest $((d - 1)))" > "$T/deep"
	raw "${want:-201}" "consent: JSON nested $d levels" "$T/deep" consent
	printf '{%s,"x":%s}' "$S" "$(nest $((d - 1)))" > "$T/deep"
	raw "${want:-200}" "scripts: JSON nested $d levels" "$T/deep" scripts
done
nest 1001 > "$T/deep"
raw 400 "consent: a bare array nested 1001 levels" "$T/deep" consent
printf '{"site_key":"s1","anon_id":"v","event_type":"initial","categories":{"a":%s}}' "$(nest 500)" > "$T/deep"
raw 400 "consent: a category nested 500 levels" "$T/deep" consent
printf '{%s}' "$(printf '%s' "$S" | sed "s|\"blocked\":false|\"blocked\":false,\"x\":$(nest 900)|")" > "$T/deep"
raw 200 "scripts: an entry with a member nested 900 levels" "$T/deep" scripts
printf '{"site_key":"s1","anon_id":"v","event_type":"initial","categories":{},"o":%s' "$(head -c 10000 /dev/zero | sed 's/\x00/{"a":/g')" > "$T/deep"
raw 400 "consent: 10000 unclosed objects" "$T/deep" consent

# --- numbers out of range ---------------------------------------------------------------------
for v in 1e309 -1e309 99999999999999999999 2147483648 -1 1.5 1e-400 "-1e-400" NaN Infinity -Infinity 0x10 \
    "$(printf '9%.0s' $(seq 5000))" 2147483647 -0 0 1.0 "1e2" 01; do
	case $v in
	2147483647 | -0 | 0 | 1.0 | 1e2 | 1e-400 | -1e-400) want=201 ;;
	01) want="201|400" ;;
	*) want=400 ;;
	esac
	consent "$want" "config_version $(printf '%s' "$v" | head -c 24)" "{$C,\"config_version\":$v}"
done
for v in 1e309 -1e309 604800000.0001 -0.0001 NaN 1e-400 -0 604800000 "$(printf '9%.0s' $(seq 5000))"; do
	case $v in 1e-400 | -0 | 604800000) want=201 ;; *) want=400 ;; esac
	consent "$want" "time_to_action_ms $(printf '%s' "$v" | head -c 24)" "{$C,\"time_to_action_ms\":$v}"
	case $v in 1e309 | -0 | 604800000.0001) consent "$want" "banner_load_time_ms $v" "{$C,\"banner_load_time_ms\":$v}" ;; esac
done
for v in 1e309 -1 253402300800000 "$(printf '9%.0s' $(seq 400))" 253402300799999 -0 1e-400; do
	case $v in 253402300799999 | -0 | 1e-400) want=200 ;; *) want=400 ;; esac
	scripts "$want" "timestamp $(printf '%s' "$v" | head -c 24)" "{$(printf '%s' "$S" | sed "s/1763800000000/$v/")}"
done
consent 201 "out-of-range numbers in an unknown field (ignored)" "{$C,\"n\":[1e309,-1e309,1e-400,-0,99999999999999999999999]}"
consent 400 "a number as site_key" "{\"site_key\":1e309,\"anon_id\":\"v\",\"categories\":{},\"event_type\":\"initial\"}"
consent 400 "1 as preferences_opened" "{$C,\"preferences_opened\":1}"
scripts 400 "0 as blocked" "{$(printf '%s' "$S" | sed 's/"blocked":false/"blocked":0/')}"

# --- duplicate keys ----------------------------------------------------------------------------
consent 400 "anon_id twice" "{$C,\"anon_id\":\"w\"}"
consent 400 "site_key twice, same value" "{$C,\"site_key\":\"s1\"}"
consent 400 "site_key twice, second unknown" "{$C,\"site_key\":\"nosuch\"}"
consent 400 "event_type twice" "{$C,\"event_type\":\"update\"}"
consent 400 "categories twice" "{$C,\"categories\":{}}"
consent 400 "a category twice" "{\"site_key\":\"s1\",\"anon_id\":\"v\",\"categories\":{\"analytics\":true,\"analytics\":false},\"event_type\":\"initial\"}"
consent 400 "an unknown field twice" "{$C,\"x\":1,\"x\":2}"
consent 201 "keys differing in case are different keys" "{$C,\"Anon_id\":\"w\",\"ANON_ID\":\"x\"}"
consent 400 "65 fields" "{$C$(for i in $(seq 61); do printf ',"f%d":1' "$i"; done)}"
consent 400 "5000 fields" "{$C$(for i in $(seq 5000); do printf ',"f%d":1' "$i"; done)}"
consent 400 "5000 categories" "{\"site_key\":\"s1\",\"anon_id\":\"v\",\"event_type\":\"initial\",\"categories\":{$(for i in $(seq 5000); do printf '"c%d":true,' "$i"; done | sed 's/,$//')}}"
scripts 400 "scripts twice" "{$S,\"scripts\":[]}"
scripts 400 "domain twice in an entry" "{$(printf '%s' "$S" | sed 's/"blocked":false/"blocked":false,"domain":"b.example.net"/')}"
scripts 400 "1000 entries" "{$(printf '%s' "$S" | sed "s|\"scripts\":\[.*\]|\"scripts\":[$(for i in $(seq 1000); do printf '{"domain":"d%d.net","blocked":true},' "$i"; done | sed 's/,$//')]|")}"

# --- 64 KiB of white space -----------------------------------------------------------------------
ws() { # N: N bytes of mixed JSON white space
	head -c "$1" /dev/zero | tr '\0' ' ' | awk 'BEGIN { RS = "\001" } { n = length($0); s = ""
		for (i = 1; i <= n; i++) s = s substr(" \t\n\r", (i % 4) + 1, 1); printf "%s", s }'
}
for ep in consent scripts; do
	b="{$C}"
	ok=201
	[ "$ep" = scripts ] && b="{$S}" ok=200
	pad=$((65536 - ${#b}))
	{ ws $((pad / 2)); printf '%s' "$b"; ws $((pad - pad / 2)); } > "$T/ws"
	raw "$ok" "$ep: body with white space, exactly 65536 bytes" "$T/ws" "$ep"
	{ ws $((pad / 2)); printf '%s' "$b"; ws $((pad - pad / 2 + 1)); } > "$T/ws"
	raw 413 "$ep: body with white space, 65537 bytes" "$T/ws" "$ep"
	ws 65536 > "$T/ws"
	raw 400 "$ep: 65536 bytes of white space only" "$T/ws" "$ep"
	ws 65537 > "$T/ws"
	raw 413 "$ep: 65537 bytes of white space only" "$T/ws" "$ep"
	{ printf '%s' "$b"; head -c $((65536 - ${#b})) /dev/zero | tr '\0' '\v'; } > "$T/ws"
	raw 400 "$ep: 65536 bytes padded with vertical tabs (not JSON white space)" "$T/ws" "$ep"
done

# --- header values of 8 KiB ---------------------------------------------------------------------------
k8() { head -c "$1" /dev/zero | tr '\0' "${2:-a}"; }
for size in 8192 8193; do
	try 201 "consent: User-Agent of $size bytes" HTTP_USER_AGENT="Mozilla/5.0 $(k8 $((size - 12)))" POST consent "" "{$C}"
	try 200 "config: Accept-Language of $size bytes" HTTP_ACCEPT_LANGUAGE="$(printf 'de-DE;q=0.5,%.0s' $(seq 700) | head -c "$size")" GET config "site_key=s1"
	hs="HTTP_CF_IPCOUNTRY HTTP_CF_REGION_CODE"
	[ "$size" = 8192 ] && hs="HTTP_CF_IPCOUNTRY HTTP_CLOUDFRONT_VIEWER_COUNTRY HTTP_X_VERCEL_IP_COUNTRY
	    HTTP_X_COUNTRY_CODE HTTP_CF_REGION_CODE HTTP_CLOUDFRONT_VIEWER_COUNTRY_REGION GEOIP_COUNTRY_CODE
	    MM_COUNTRY_CODE REMOTE_ADDR"
	for h in $hs; do
		try 200 "config: $h of $size bytes" "$h=$(k8 "$size" D)" GET config "site_key=s1"
		try 201 "consent: $h of $size bytes" "$h=$(k8 "$size" D)" POST consent "" "{$C}"
	done
	try 201 "consent: CONTENT_TYPE of $size bytes" CONTENT_TYPE="$(k8 "$size" t)" POST consent "" "{$C}"
	ORIGIN="https://$(k8 $((size - 8)) a)" try 403 "config: Origin of $size bytes" GET config "site_key=s1"
	for ep in consent scripts; do
		b="{$C}"
		[ "$ep" = scripts ] && b="{$S}"
		ORIGIN="https://$(k8 $((size - 8)) a)" try 403 "$ep: Origin of $size bytes" POST "$ep" "" "$b"
	done
done
ORIGIN="https://$(k8 243 a).example.com" try 403 "consent: Origin with a host of 255 characters" POST consent "" "{$C}"
check test "$(ctl consent export s1 | jq -r .country | sort -u | tr '\n' ' ')" = "null " "no overlong country header was stored as a country"

# --- CR, LF and other bytes in the Origin (response splitting) ------------------------------------------
for o in $'https://example.com\r\nSet-Cookie: a=b' $'https://example.com\nX-Injected: 1' $'https://example.com\r' \
    $'https://example.com\n' $'\r\nStatus: 200 OK\r\n' $'https://example.com\r\n\r\n{"a":1}' \
    $'https://example.com\tx' 'https://example.com%0d%0aX: y' 'null' ' https://example.com' 'https://example.com ' \
    'https://example.com:99999' 'https://example.com:' 'https://user@example.com' 'https://example.com/' \
    'javascript:alert(1)' 'https://' 'https://.' 'https://[::1' "https://exa\"mple.com"; do
	d=$(show "$o" 40)
	eps=consent
	case $o in *$'\r'* | *$'\n'*) eps="config consent scripts" ;; esac
	for ep in $eps; do
		b="{$C}"
		[ "$ep" = scripts ] && b="{$S}"
		m=POST
		[ "$ep" = config ] && m=GET
		ORIGIN=$o try 403 "$ep: Origin $d" "$m" "$ep" "site_key=s1" "$b"
		if [ "$(header Access-Control-Allow-Origin)" != "*" ]; then notok "$ep: Origin $d: Access-Control-Allow-Origin is not *"; fi
	done
done
# Spellings of a registered host: either answer is sound, and the Origin may
# be echoed (it is well-formed).
ORIGIN='https://EXAMPLE.com' try "201|403" "consent: Origin in upper case" POST consent "" "{$C}"
ORIGIN='https://example.com.' try "201|403" "consent: Origin with the root dot" POST consent "" "{$C}"

# --- bodies that are not what they claim ----------------------------------------------------------------
for b in null '[]' 1e309 '"x"' '{}' '{' '}' '{"site_key":"s1",}' "{'site_key':'s1'}" '{"site_key":"s1"/*c*/}' \
    "{$C}{$C}" "{$C}]" '{"site_key":"../../etc/passwd","anon_id":"v","categories":{},"event_type":"initial"}' \
    "{\"site_key\":\"s1' OR '1'='1\",\"anon_id\":\"v\",\"categories\":{},\"event_type\":\"initial\"}" \
    "{\"site_key\":\"$(printf 'k%.0s' $(seq 65))\",\"anon_id\":\"v\",\"categories\":{},\"event_type\":\"initial\"}" \
    "{$(printf '%s' "$C" | sed "s/\"v\"/\"$(k8 60000 v)\"/")}" '{"site_key":"s1","anon_id":"v","categories":{},"event_type":"initial","page_url":"\ud800"}'; do
	consent 400 "body $(show "$b" 30) ($(printf '%s' "$b" | wc -c) bytes)" "$b"
done
consent 404 "well-formed unknown site_key of 64" "{\"site_key\":\"$(printf 'k%.0s' $(seq 64))\",\"anon_id\":\"v\",\"categories\":{},\"event_type\":\"initial\"}"
consent 201 "a UTF-8 byte order mark before the body (RFC 8259 allows ignoring it)" $'\xef\xbb\xbf'"{$C}"
consent 201 "an unknown string of 60000 bytes (ignored)" "{$C,\"x\":\"$(k8 60000 x)\"}"
consent 201 "escaped characters that are fine" "{$C,\"page_url\":\"https://example.com/\\u00e9\\ud83d\\ude00\\\"\\/\"}"

if store_is_postgres; then
	skip "integrity_check ok after the sweep: SQLite only (PRAGMA integrity_check)"
else
	check test "$(sqlite3 "$CONSENT_DB" 'PRAGMA integrity_check')" = ok "integrity_check ok after the sweep"
fi
if [ "$failed" = 0 ]; then ok "figure: $inputs hostile inputs tried, every one answered cleanly"; else
	notok "figure: $inputs hostile inputs tried, $failed not answered as expected"; fi
