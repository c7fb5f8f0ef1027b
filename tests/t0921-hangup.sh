#!/bin/bash
# t0921-hangup.sh: the web server hangs up before the answer (its client
# left: a page closed or navigated away while a request was in flight).
#
# Each endpoint, run as CGI with its standard output a pipe whose reader
# has already gone, must end as it would have: exit status 0, not killed
# by SIGPIPE (lighttpd logs such a death: "CGI pid N died with signal
# 13"), and the work of the request done: the consent entry and the
# scripts report are stored.  In FastCGI mode the server's hang-up is the
# FastCGI library's to see (t0960-fastcgi), so that pass skips.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"
mode_independent

site hang --tier paid
UA="Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"

# hangup NAME METHOD QUERY BODY [VAR=VALUE...]: runs cgi-bin/NAME with
# its output into a pipe already closed; prints its exit status.
hangup() {
	local _name=$1 _m=$2 _q=$3 _body=$4
	shift 4
	printf '%s' "$_body" > "$T/request"
	mkfifo "$T/fifo"
	# The reader opens the pipe and leaves at once: the writer's open
	# returns only once the reader has it, and its writes come after the
	# reader's close (a reader still there would only make a false pass).
	( exec 0< "$T/fifo" ) &
	env --default-signal=PIPE -i PATH="$PATH" CONSENT_DB="$CONSENT_DB" REQUEST_METHOD="$_m" QUERY_STRING="$_q" \
	    GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=127.0.0.1 \
	    CONTENT_LENGTH=${#_body} CONTENT_TYPE=application/json \
	    HTTP_ORIGIN=https://example.com HTTP_USER_AGENT="$UA" \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} \
	    "$@" sh -c 'sleep 0.2; exec "$0"' "$BUILD/cgi-bin/$_name" \
	    < "$T/request" > "$T/fifo" 2> "$T/stderr.$_name"
	echo $?
	wait
	rm -f "$T/fifo"
}

# ends NAME TABLE WHAT METHOD QUERY BODY [VAR=VALUE...]: NAME run with the
# server gone exits 0 and, when TABLE is not "-", TABLE has one row more
# (the work done although its answer could not be sent).
ends() {
	local _name=$1 _table=$2 _what=$3 _before=0 _after _rc
	shift 3
	[ "$_table" = - ] || _before=$(db "SELECT count(*) FROM $_table")
	_rc=$(hangup "$_name" "$@")
	[ "$_rc" = 0 ] && ok "$_name: exits 0 when the server hung up" ||
		notok "$_name: exit status $_rc when the server hung up (141: killed by SIGPIPE): $(head -c 300 "$T/stderr.$_name")"
	[ "$_table" = - ] && return
	_after=$(db "SELECT count(*) FROM $_table")
	[ "$_after" = $((_before + 1)) ] && ok "$_name: $_what is stored although its answer could not be sent" ||
		notok "$_name: $_table had $_before rows before, $_after after"
}

ends consent consent_log "the entry" POST '' '{"site_key":"hang","anon_id":"v-hangup","categories":{"necessary":true,"analytics":true},"event_type":"initial","page_url":"https://example.com/"}'
ends config - - GET site_key=hang ''
ends scripts scripts "the report" POST '' '{"site_key":"hang","page_url":"https://example.com/s","timestamp":1763800000000,"scripts":[{"domain":"cdn.example.net","src":"https://cdn.example.net/a.js","blocked":true}]}'
ends admin - - GET '' '' SCRIPT_NAME=/admin/api PATH_INFO=/session HTTPS=on HTTP_HOST=admin.example.com
