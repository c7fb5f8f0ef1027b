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

# setup.sh's cgi() makes the request as always; its program's output goes
# into a pipe whose reader has gone.  The reader opens the pipe and
# leaves at once: the writer's open returns only once the reader has it,
# and the program starts after the reader's close (a reader still there
# would only make a false pass).  SIGPIPE as a web server leaves it (its
# default), whatever this shell was given.  cgi() says "not ok" with the
# status when the program does not exit 0.
_wrap() {
	local _rc
	mkfifo "$T/fifo"
	( exec 0< "$T/fifo" ) &
	{ sleep 0.2; env --default-signal=PIPE "$@"; } > "$T/fifo"
	_rc=$?
	wait
	rm -f "$T/fifo"
	echo "$_rc" > "$T/rc"
	return "$_rc"
}

# ends NAME TABLE WHAT [VAR=VALUE...] METHOD QUERY BODY: NAME run with the
# server gone exits 0 (141: killed by SIGPIPE) and, when TABLE is not
# "-", TABLE has one row more (the work done although its answer could
# not be sent).
ends() {
	local _name=$1 _table=$2 _what=$3 _before=0 _after
	shift 3
	[ "$_table" = - ] || _before=$(db "SELECT count(*) FROM $_table")
	cgi "${@:1:$#-3}" "${@: -3:1}" "$_name" "${@: -2:1}" "${@: -1}"
	[ "$(cat "$T/rc")" = 0 ] && ok "$_name: exits 0 when the server hung up"
	[ "$_table" = - ] && return
	_after=$(db "SELECT count(*) FROM $_table")
	[ "$_after" = $((_before + 1)) ] && ok "$_name: $_what is stored although its answer could not be sent" ||
		notok "$_name: $_table had $_before rows before, $_after after"
}

ends consent consent_log "the entry" POST '' '{"site_key":"hang","anon_id":"v-hangup","categories":{"necessary":true,"analytics":true},"event_type":"initial","page_url":"https://example.com/"}'
ends config - - GET site_key=hang ''
ends scripts scripts "the report" POST '' '{"site_key":"hang","page_url":"https://example.com/s","timestamp":1763800000000,"scripts":[{"domain":"cdn.example.net","src":"https://cdn.example.net/a.js","blocked":true}]}'
ends admin - - SCRIPT_NAME=/admin/api PATH_INFO=/session HTTPS=on HTTP_HOST=admin.example.com GET '' ''
