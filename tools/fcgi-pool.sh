# fcgi-pool.sh: sourced (sh or bash) by bench/apache.sh and
# tests/t0820-deploy-apache-proxy-fcgi.sh, so that both start a pool exactly
# as apache/consent-fcgi@.service does.
#
# fcgi_pool_start UNIT ENDPOINT [NAME=VALUE...]
#   in the background: the unit's ExecStart with %i = ENDPOINT, in the
#   environment of the unit's Environment= lines, each NAME=VALUE given
#   here replacing the unit's (RUN, CGIBIN, CONSENT_DB: the caller's
#   folders); $FCGI_POOL_AS, when set, is a command prefix that runs it as
#   another user (setpriv ...).  FCGI_POOL_PID is the pool's pid (spawn-fcgi
#   execs multiwatch in place).  Redirect the call to keep its output.
fcgi_pool_start() {
	_fp_unit=$1 _fp_endpoint=$2
	shift 2
	(
		set -f
		_fp_ifs=$IFS
		IFS='
'
		for _fp_v in $(sed -n 's/^Environment=//p' "$_fp_unit"); do export "$_fp_v"; done
		IFS=$_fp_ifs
		for _fp_v in "$@"; do export "$_fp_v"; done
		eval "exec ${FCGI_POOL_AS:-} $(sed -n 's/^ExecStart=//p' "$_fp_unit" | sed "s/%i/$_fp_endpoint/g")"
	) &
	FCGI_POOL_PID=$!
}
