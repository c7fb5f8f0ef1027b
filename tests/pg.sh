#!/bin/sh
# pg.sh: a throwaway PostgreSQL cluster with a pgbouncer in front, for the
# tests of the PostgreSQL store (CONSENT_TEST_STORE=postgres: tests/run.sh
# starts one per run, tests/setup.sh makes a database per test file).
#
# Run, DIR being the cluster's folder:
#
#   sh tests/pg.sh start [--env] DIR
#                   make DIR (absent or empty) and start in it a cluster
#                   (initdb, login role consent, not a superuser) and a
#                   pgbouncer configured from pgbouncer/pgbouncer.ini;
#                   prints nothing, or with --env the shell assignment of
#                   CONSENT_PG_DIR; on failure one line on stderr, exit 1,
#                   and nothing left running
#   sh tests/pg.sh stop DIR                  stop both, wait until both ended
#   sh tests/pg.sh stop-part DIR PART        stop one, PART postgres or pgbouncer
#   sh tests/pg.sh start-part DIR PART       start it again
#   sh tests/pg.sh restart DIR PART          stop-part, then start-part
#   sh tests/pg.sh kill DIR PART             end it abruptly: pgbouncer by
#                   SIGKILL, postgres by an immediate shutdown (PostgreSQL's
#                   crash: no checkpoint, recovery at the next start); the
#                   clients' connections break
#   sh tests/pg.sh pause DIR PART            SIGSTOP: pgbouncer, or every
#                   process of the server (the postmaster first, so that it
#                   forks no new one, then its children: the whole server
#                   hangs, queries in flight included); connections stay
#                   open and nothing answers until
#   sh tests/pg.sh resume DIR PART           SIGCONT
#
# Sourced (`. tests/pg.sh`; it runs nothing then), with CONSENT_PG_DIR set
# to DIR:
#
#   pg_new_db [PREFIX]       a fresh empty database owned by consent, named
#                            PREFIX (letters, digits, _; default consent)
#                            and a random suffix, so that no name is used
#                            twice; prints the conninfo through pgbouncer,
#                            "host=DIR port=6432 dbname=NAME user=consent"
#   pg_drop_db NAME          drop it, closing the connections still on it
#   pg_psql NAME ARGS...     psql as postgres on it, directly
#   pg_admin_conninfo NAME   the conninfo of that direct connection
#
# DIR holds the Unix sockets of both (.s.PGSQL.5432: the server, only
# there, no TCP; .s.PGSQL.6432: pgbouncer), data/ (the cluster),
# postgres.log, pgbouncer.ini, userlist.txt, pgbouncer.log and
# pgbouncer.pid.  Authentication is trust on both: the sockets are the
# only way in.  Run as root, both servers run as nobody (PostgreSQL and
# pgbouncer refuse root), who then owns DIR; any user reaches the sockets.
#
# The cluster is initdb'd with -E UTF8 --locale=C for speed and
# reproducibility; the store must not rely on either (a real primary may
# have another collation), so the tests do not either.

# PostgreSQL's programs: Debian keeps them out of PATH, in
# /usr/lib/postgresql/VERSION/bin (the newest wins); PG_BINDIR overrides.
_pg_find_bin() {
	for _pg_b in ${PG_BINDIR:-} $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5nr); do
		[ -x "$_pg_b/initdb" ] && [ -x "$_pg_b/psql" ] && { echo "$_pg_b"; return 0; }
	done
	_pg_b=$(command -v initdb) || return 1
	dirname "$(readlink -f "$_pg_b")"
}
_PG_BIN=$(_pg_find_bin)
_PG_BOUNCER=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)

_pg_rand() { od -An -N4 -tx4 /dev/urandom | tr -d ' \n'; }

# _pg_as CMD...: CMD as the servers' user.  As root: the owner of DIR
# (nobody for a new one, whom start makes its owner: PostgreSQL and
# pgbouncer refuse root), so that root also stops a cluster a user
# started; else oneself.  From /, which that user can always enter (initdb
# and pg_ctl look at their working folder).
_pg_as() {
	if [ "$(id -u)" -eq 0 ]; then
		_pg_u=$(stat -c %U "$CONSENT_PG_DIR")
		[ "$_pg_u" = root ] && _pg_u=nobody
		(cd / && exec setpriv --reuid="$_pg_u" --regid="$(id -g "$_pg_u")" --clear-groups "$@")
	else
		(cd / && exec "$@")
	fi
}

pg_admin_conninfo() { # NAME
	echo "host=$CONSENT_PG_DIR port=5432 dbname=$1 user=postgres"
}

_pg_need_dir() {
	if [ -z "${CONSENT_PG_DIR:-}" ] || [ ! -S "$CONSENT_PG_DIR/.s.PGSQL.5432" ]; then
		echo "pg.sh: no test cluster runs in CONSENT_PG_DIR='${CONSENT_PG_DIR:-}' (sh tests/pg.sh start DIR)" >&2
		return 1
	fi
	[ -n "$_PG_BIN" ] || { echo "pg.sh: PostgreSQL's programs (initdb, psql) are not installed" >&2; return 1; }
}

pg_psql() { # NAME ARGS...
	_pg_need_dir || return 1
	_pg_pn=$1
	shift
	"$_PG_BIN/psql" -X -v ON_ERROR_STOP=1 -d "$(pg_admin_conninfo "$_pg_pn")" "$@"
}

pg_new_db() { # [PREFIX]
	_pg_need_dir || return 1
	_pg_n=$(printf '%s' "${1:-consent}" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9_' _ | cut -c1-40)_$(_pg_rand)
	pg_psql postgres -q -c "CREATE DATABASE \"$_pg_n\" OWNER consent" || return 1
	echo "host=$CONSENT_PG_DIR port=6432 dbname=$_pg_n user=consent"
}

# pgbouncer is not told: a pooled server connection to the dropped
# database is closed by the drop (pgbouncer logs a warning that it got a
# packet from an idle server, and forgets it).
# A name is never used twice, so no client can get such a connection for a
# new database of the same name.
pg_drop_db() { # NAME
	case $1 in
	'' | *[!a-z0-9_]*) echo "pg.sh: '$1' is not a database of pg_new_db" >&2; return 1 ;;
	esac
	pg_psql postgres -q -c "DROP DATABASE IF EXISTS \"$1\" WITH (FORCE)"
}

# --- the commands ---------------------------------------------------------------

_pg_fail() { echo "pg.sh: $*" >&2; exit 1; }

_pg_long() { # PATH: a folder whose sockets' paths fit in sun_path
	[ ${#1} -le $((107 - 14)) ] ||
		_pg_fail "$1: too long for a Unix socket path (at most 93 bytes, and /.s.PGSQL.5432)"
}

# _pg_alive PID: it runs.  An ended process stays a zombie until init
# reaps it, which some containers' init does late.
_pg_alive() {
	kill -0 "$1" 2>/dev/null || return 1
	case $(ps -o stat= -p "$1") in Z*) return 1 ;; esac
}

_pg_pm_pid() { # the postmaster's pid, if it runs
	[ -f "$_pg_data/postmaster.pid" ] || return 1
	read -r _pg_p < "$_pg_data/postmaster.pid" 2>/dev/null || return 1
	_pg_alive "$_pg_p" && echo "$_pg_p"
}

_pg_bouncer_pid() { # pgbouncer's pid, if it runs
	[ -f "$CONSENT_PG_DIR/pgbouncer.pid" ] || return 1
	read -r _pg_p < "$CONSENT_PG_DIR/pgbouncer.pid" 2>/dev/null || return 1
	_pg_alive "$_pg_p" && echo "$_pg_p"
}

_pg_last_line() { # FILE: its last non-empty line, for a one-line reason
	[ -f "$1" ] && grep -v '^[[:space:]]*$' "$1" | tail -n 1 | cut -c1-300
}

# _pg_wait_gone PID SECONDS: until the process ended; 1 if it did not.
_pg_wait_gone() {
	_pg_i=0
	while _pg_alive "$1"; do
		[ "$_pg_i" -ge $(($2 * 10)) ] && return 1
		sleep 0.1
		_pg_i=$((_pg_i + 1))
	done
}

_pg_signal() { # SIGNAL PART: pause and resume
	case $2 in
	pgbouncer)
		_pg_p=$(_pg_bouncer_pid) || _pg_fail "pgbouncer does not run in $CONSENT_PG_DIR"
		kill -"$1" "$_pg_p"
		;;
	postgres)
		_pg_p=$(_pg_pm_pid) || _pg_fail "PostgreSQL does not run in $CONSENT_PG_DIR"
		# Stopped first, the postmaster forks no child while they stop.
		[ "$1" = STOP ] && kill -STOP "$_pg_p"
		kill -"$1" $(pgrep -P "$_pg_p") 2>/dev/null
		[ "$1" = CONT ] && kill -CONT "$_pg_p"
		;;
	esac
	return 0
}

# pg_ctl's own output (pg_ctl.out) says why it failed; the server's log
# says why the server did.
_pg_start_postgres() {
	_pg_pm_pid >/dev/null && return 0
	_pg_as "$_PG_BIN/pg_ctl" -D "$_pg_data" -l "$CONSENT_PG_DIR/postgres.log" -w -t 60 start \
	    > "$CONSENT_PG_DIR/pg_ctl.out" 2>&1 && return 0
	_pg_r=$(grep -h 'FATAL\|PANIC' "$CONSENT_PG_DIR/postgres.log" 2>/dev/null | tail -n 1 | cut -c1-300)
	_pg_fail "PostgreSQL did not start: ${_pg_r:-$(_pg_last_line "$CONSENT_PG_DIR/pg_ctl.out")}"
}

# pg_ctl -w waits for the pid file to go, which the postmaster removes
# just before it exits: then wait for the process itself.
_pg_stop_postgres() { # [fast|immediate]
	_pg_pm=$(_pg_pm_pid) || return 0
	_pg_signal CONT postgres
	_pg_as "$_PG_BIN/pg_ctl" -D "$_pg_data" -m "${1:-fast}" -w -t 60 stop > "$CONSENT_PG_DIR/pg_ctl.out" 2>&1 ||
		_pg_as "$_PG_BIN/pg_ctl" -D "$_pg_data" -m immediate -w -t 30 stop > "$CONSENT_PG_DIR/pg_ctl.out" 2>&1 ||
		_pg_fail "PostgreSQL did not stop: $(_pg_last_line "$CONSENT_PG_DIR/pg_ctl.out")"
	_pg_wait_gone "$_pg_pm" 10 || _pg_fail "PostgreSQL (pid $_pg_pm) did not exit"
}

# pgbouncer is ready when a query through it reaches the server.
_pg_start_pgbouncer() {
	_pg_bouncer_pid >/dev/null && return 0
	_pg_as "$_PG_BOUNCER" -d "$CONSENT_PG_DIR/pgbouncer.ini" > "$CONSENT_PG_DIR/pgbouncer.out" 2>&1 ||
		_pg_fail "pgbouncer did not start: $(_pg_last_line "$CONSENT_PG_DIR/pgbouncer.out")"
	_pg_i=0
	until "$_PG_BIN/psql" -X -q -At -c 'SELECT 1' \
	    "host=$CONSENT_PG_DIR port=6432 dbname=postgres user=postgres connect_timeout=2" >/dev/null 2>&1; do
		# -d returns before the daemon writes its pid file.
		# A loaded machine (a whole suite beside it) may take seconds;
		# a daemon gone for 2 s after writing its pid file is not coming.
		if [ "$_pg_i" -ge 300 ] || { [ "$_pg_i" -ge 20 ] && [ -f "$CONSENT_PG_DIR/pgbouncer.pid" ] &&
		    ! _pg_bouncer_pid >/dev/null; }; then
			_pg_stop_pgbouncer KILL
			_pg_r=$(_pg_last_line "$CONSENT_PG_DIR/pgbouncer.log")
			_pg_fail "pgbouncer did not answer on $CONSENT_PG_DIR/.s.PGSQL.6432 within 30 s${_pg_r:+: $_pg_r}"
		fi
		sleep 0.1
		_pg_i=$((_pg_i + 1))
	done
}

_pg_stop_pgbouncer() { # [TERM|KILL]: TERM closes every connection at once
	_pg_p=$(_pg_bouncer_pid) || return 0
	kill -CONT "$_pg_p"
	kill -"${1:-TERM}" "$_pg_p"
	if ! _pg_wait_gone "$_pg_p" 10; then
		kill -KILL "$_pg_p"
		_pg_wait_gone "$_pg_p" 5 || _pg_fail "pgbouncer (pid $_pg_p) did not stop"
	fi
	# SIGKILL leaves its pid file (it would take a stale one over anyway).
	rm -f "$CONSENT_PG_DIR/pgbouncer.pid"
}

# The tests' pgbouncer.ini is the shipped one with the line after each
# "# test: WHAT" marker replaced.  A marker this list does not know, or
# one missing, is an error: the two files change together.
_pg_bouncer_ini() { # SHIPPED
	_pg_d=$CONSENT_PG_DIR
	_pg_want="auth file|auth type|databases|log file|pid file|server idle timeout|socket dir"
	_pg_got=$(sed -n 's/^# test: //p' "$1" | sort | paste -sd '|' -)
	[ "$_pg_got" = "$_pg_want" ] ||
		_pg_fail "$1: its '# test:' markers are '$_pg_got', tests/pg.sh rewrites '$_pg_want'"
	# Every database name reaches the server of the same name (no reload
	# when a test makes one).  A pool idle for 5 s closes its server
	# connections: a test file whose own EXIT trap skips setup.sh's
	# _cleanup (tests/deploy/lib.sh) leaves its database behind, and its
	# pool must not hold the server's connections for the rest of the run.
	sed -e "/^# test: databases\$/{n;s|.*|* = host=$_pg_d port=5432|;}" \
	    -e "/^# test: socket dir\$/{n;s|.*|unix_socket_dir = $_pg_d|;}" \
	    -e "/^# test: log file\$/{n;s|.*|logfile = $_pg_d/pgbouncer.log|;}" \
	    -e "/^# test: pid file\$/{n;s|.*|pidfile = $_pg_d/pgbouncer.pid|;}" \
	    -e "/^# test: auth type\$/{n;s|.*|auth_type = trust|;}" \
	    -e "/^# test: auth file\$/{n;s|.*|auth_file = $_pg_d/userlist.txt|;}" \
	    -e "/^# test: server idle timeout\$/{n;s|.*|server_idle_timeout = 5|;}" \
	    "$1" > "$_pg_d/pgbouncer.ini"
	# trust still wants each user listed.
	printf '"consent" ""\n"postgres" ""\n' > "$_pg_d/userlist.txt"
}

_pg_start() { # SHIPPED_INI
	_pg_d=$CONSENT_PG_DIR
	if [ "$(id -u)" -eq 0 ]; then
		if ! command -v setpriv >/dev/null 2>&1 || ! id nobody >/dev/null 2>&1; then
			_pg_fail "running as root needs setpriv and a user nobody (PostgreSQL refuses root)"
		fi
		chown "nobody:$(id -g nobody)" "$_pg_d"
	fi
	chmod 755 "$_pg_d"
	_pg_as test -w "$_pg_d" -a -x "$_pg_d" ||
		_pg_fail "$_pg_d: not writable by $(_pg_as id -un) (is a parent folder closed to it?)"
	_pg_as "$_PG_BIN/initdb" -D "$_pg_data" -U postgres --auth=trust -E UTF8 --locale=C --no-sync \
	    > "$_pg_d/initdb.log" 2>&1 || _pg_fail "initdb failed: $(_pg_last_line "$_pg_d/initdb.log")"
	# Only the socket in DIR, no TCP (two runs on one machine never meet);
	# room for the concurrency tests' connections; little memory.
	cat >> "$_pg_data/postgresql.conf" <<-EOF

	# tests/pg.sh
	listen_addresses = ''
	unix_socket_directories = '$_pg_d'
	port = 5432
	max_connections = 300
	shared_buffers = 32MB
	EOF
	# CONSENT_PG_NOSYNC=1 (tests/run.sh): a throwaway cluster need not
	# survive a power cut, and the suite's thousands of commits then cost
	# no disk flush.  The bench leaves it unset: its commits are durable,
	# as SQLite's are there.
	if [ "${CONSENT_PG_NOSYNC:-0}" = 1 ]; then
		printf 'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n' \
		    >> "$_pg_data/postgresql.conf"
	fi
	_pg_start_postgres
	"$_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -c 'CREATE ROLE consent LOGIN' \
	    "$(pg_admin_conninfo postgres)" > "$_pg_d/role.log" 2>&1 ||
		_pg_fail "CREATE ROLE consent: $(_pg_last_line "$_pg_d/role.log")"
	_pg_bouncer_ini "$1"
	_pg_start_pgbouncer
}

_pg_usage() {
	echo "usage: sh tests/pg.sh start [--env] DIR | stop DIR | start-part|stop-part|restart|kill|pause|resume DIR postgres|pgbouncer" >&2
	exit 2
}

_pg_main() {
	_pg_cmd=${1:-}
	[ $# -gt 0 ] && shift
	_pg_env=0
	if [ "$_pg_cmd" = start ] && [ "${1:-}" = --env ]; then
		_pg_env=1
		shift
	fi
	case $_pg_cmd in
	start | stop) [ $# -eq 1 ] || _pg_usage ;;
	start-part | stop-part | restart | kill | pause | resume)
		[ $# -eq 2 ] || _pg_usage
		case $2 in postgres | pgbouncer) ;; *) _pg_usage ;; esac
		;;
	*) _pg_usage ;;
	esac
	[ -n "$_PG_BIN" ] || _pg_fail "PostgreSQL's programs (initdb, pg_ctl, psql) are not installed (tools/deps.sh)"
	[ -x "$_PG_BOUNCER" ] || _pg_fail "pgbouncer is not installed (tools/deps.sh)"
	# DIR goes unquoted into conninfo strings and config files.
	case $1 in
	'' | *[!A-Za-z0-9/._-]*) _pg_fail "DIR '$1': only letters, digits and / . _ - please" ;;
	esac
	# A socket's path is at most 107 bytes (sun_path): DIR and
	# /.s.PGSQL.5432.  Checked on the path as given before anything is
	# made, then on the real one.
	case $1 in /*) _pg_abs=$1 ;; *) _pg_abs=$PWD/$1 ;; esac
	_pg_long "$_pg_abs"
	if [ "$_pg_cmd" = start ]; then
		mkdir -p "$1" 2>/dev/null || _pg_fail "cannot make $1"
		[ -z "$(ls -A "$1")" ] || _pg_fail "$1 is not empty"
	fi
	[ -d "$1" ] || _pg_fail "$1 is not a folder"
	CONSENT_PG_DIR=$(cd "$1" && pwd -P)
	_pg_data=$CONSENT_PG_DIR/data
	_pg_long "$CONSENT_PG_DIR"
	if [ "$_pg_cmd" != start ]; then
		[ -f "$_pg_data/PG_VERSION" ] || _pg_fail "$CONSENT_PG_DIR: no cluster made by pg.sh start"
	fi
	case $_pg_cmd in
	start)
		# Whatever fails on the way, nothing is left running.
		trap '[ $? -eq 0 ] || { (_pg_stop_pgbouncer KILL); (_pg_stop_postgres immediate); } >/dev/null 2>&1' EXIT
		_pg_start "$(cd "$(dirname "$0")/.." && pwd)/pgbouncer/pgbouncer.ini"
		trap - EXIT
		[ "$_pg_env" = 1 ] && echo "CONSENT_PG_DIR=$CONSENT_PG_DIR; export CONSENT_PG_DIR"
		;;
	stop)
		_pg_stop_pgbouncer
		_pg_stop_postgres
		;;
	start-part) "_pg_start_$2" ;;
	stop-part) "_pg_stop_$2" ;;
	restart)
		"_pg_stop_$2"
		"_pg_start_$2"
		;;
	kill)
		case $2 in
		pgbouncer) _pg_stop_pgbouncer KILL ;;
		postgres) _pg_stop_postgres immediate ;;
		esac
		;;
	pause) _pg_signal STOP "$2" ;;
	resume) _pg_signal CONT "$2" ;;
	esac
	exit 0
}

# Run (not sourced): $0 is this file.
case ${0##*/} in
pg.sh) _pg_main "$@" ;;
esac
