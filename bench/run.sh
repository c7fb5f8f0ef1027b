#!/bin/sh
# run.sh: `make bench`.  How close each endpoint comes to the cheapest CGI
# program there is (bench/hello.c), run directly and through a real lighttpd,
# as CGI and as FastCGI.
#
# One run, all on 127.0.0.1:
#   1. builds the endpoints as the default build does (build/bench: fully
#      static with tools/static-libs.sh's archives, which it makes), the
#      static floor program and the spawn loop (bench/spawn.c);
#   2. makes two databases with consentctl: "empty" (the site "bench", its
#      domain and the config of bench/fixtures/config.json: 6 categories,
#      4 regions, 8 languages, 20 script rules) and "1M", the same grown by
#      bench/gen.sql to 10,000 sites and 1,000,000 consent entries (cached in
#      build/bench/ while its inputs do not change);
#   3. starts its own lighttpd on a free port of 127.0.0.1 with the
#      endpoints' part of lighttpd/consent.conf but not its rate limiter
#      (20 requests per 10 s would measure the limiter), and for each
#      round's FastCGI scenarios a second one with the fastcgi.server of
#      lighttpd/consent-fastcgi.conf, BENCH_FCGI_PROCS config and
#      BENCH_FCGI_WRITER_PROCS consent and scripts processes;
#   4. ROUNDS times, interleaved so that drift on the machine hits every
#      scenario alike: wrk at 8 and 32 connections for SECONDS each on the
#      floor and on every scenario as CGI, then on every scenario as
#      FastCGI, then each binary run directly N times beside N runs of the
#      floor, each evicted from the page cache first (spawn -E);
#   5. prints the table (direct "x floor", req/s ratios to the CGI floor in
#      both modes, the issue's targets) and writes bench/results.md.
#
# Scenarios: config (GET, the big config, German visitor), consent (POST,
# initial, 4 categories, a new visitor each request), scripts (POST, 10
# entries of which 5 are new domains each request); each on both databases;
# and config_builtin (GET, the same visitor, a site with nothing published:
# the built-in texts of every language) on the empty one.  Each again as
# fcgi/NAME when the build has the FastCGI mode.
#
# PostgreSQL (issue 13): pg_config, pg_consent and pg_scripts (and
# pg_config_builtin when named) are the same requests to the endpoints of
# `make B=build/bench-pg STORE=postgres`, with CONSENT_DB the conninfo of a
# pgbouncer in front of a private cluster (tests/pg.sh start: Unix sockets
# in a folder of /tmp, the shipped pgbouncer/pgbouncer.ini in transaction
# pooling with its own server_idle_timeout), on a database made by
# consentctl like the empty log and made afresh from it every round.
# "writers" (not a row of the table): WRITERS concurrent clients posting
# consents through mod_cgi, wrk -cWRITERS on consent and on pg_consent, in
# turn, every round: the two stores' req/s and their ratio.  For every wrk
# run of a PostgreSQL scenario, the server's CPU time (the postmaster and
# its children, utime + stime from /proc) and pgbouncer's, over the
# requests served: the database's CPU per request.  Without PostgreSQL's
# programs, pgbouncer or libpq's headers, the PostgreSQL scenarios and
# writers are skipped (one line says so) and the rest runs.
#
# Settings (environment): BENCH_ROUNDS (3), BENCH_SECONDS (3), BENCH_DIRECT_N
# (100), BENCH_SANDBOX_N (1000), BENCH_ROWS (1000000), BENCH_SITES (10000),
# BENCH_PORT (first free from 18100), BENCH_STATIC (auto: make the static
# archives with tools/static-libs.sh; 0: never), BENCH_FCGI (auto: FastCGI scenarios for every
# build that has the mode; 0: CGI only), BENCH_FCGI_PROCS (4: config
# processes in the FastCGI lighttpd; docs/performance.md says why 4),
# BENCH_FCGI_WRITER_PROCS (2: consent and scripts processes each, as
# lighttpd/consent-fastcgi.conf says), BENCH_PG (auto: the PostgreSQL
# scenarios when PostgreSQL is installed; 0: never), BENCH_WRITERS (16:
# the clients of "writers").
#
# To weigh a change before it lands, give other builds of the three
# endpoints: BENCH_VARIANTS="name=DIR ..." (DIR holds config, consent and
# scripts) measures config@name, consent@name and scripts@name for each, on
# the empty database (BENCH_VARIANT_1M=1: on both), interleaved with the
# floor and with this tree's own build as config, consent and scripts;
# config_builtin@name too when config_builtin is among the scenarios; and
# fcgi/config@name ... when that build has the FastCGI mode.  When
# DIR/consentctl, DIR/../bin/consentctl or (a build from before
# consentctl moved) DIR/../tools/consentctl exists, that consentctl makes the
# variant's empty database (its own schema version, answers prepared with
# its own stamp: prepare.c), so that a build from before a change is
# measured on the database it was made for.
# BENCH_SCENARIOS="floor config ..." narrows the tree's own scenarios
# (pg_NAME and writers among them).
# BENCH_CGI=DIR, BENCH_PG_CGI=DIR (the three endpoints of a STORE=postgres
# build) and BENCH_CTL=PATH use those builds instead of building.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
start=$(date +%s)

ROUNDS=${BENCH_ROUNDS:-3}
SECS=${BENCH_SECONDS:-3}
DIRECT_N=${BENCH_DIRECT_N:-100}
SANDBOX_N=${BENCH_SANDBOX_N:-1000}
ROWS=${BENCH_ROWS:-1000000}
SITES=${BENCH_SITES:-10000}
FCGI_MODE=${BENCH_FCGI:-auto}
FCGI_PROCS=${BENCH_FCGI_PROCS:-4}
FCGI_WRITER_PROCS=${BENCH_FCGI_WRITER_PROCS:-2}
PG_MODE=${BENCH_PG:-auto}
WRITERS=${BENCH_WRITERS:-16}
B=build/bench
PGB=build/bench-pg
W=$top/$B/run
RAW=$W/raw.tsv
RESULTS=$top/bench/results.md

say() { printf 'bench: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

for t in wrk lighttpd sqlite3 curl cc make; do
	command -v "$t" >/dev/null 2>&1 || die "$t is not installed (sudo sh tools/deps.sh)"
done

# The scenarios (section 4 names them); "writers" is no row of the table
# but WRITERS clients on consent and pg_consent.
SCENARIOS=${BENCH_SCENARIOS:-floor config config_builtin consent scripts config_1m consent_1m scripts_1m pg_config pg_consent pg_scripts writers}
case " $SCENARIOS " in *" floor "*) ;; *) SCENARIOS="floor $SCENARIOS" ;; esac
case $WRITERS in '' | *[!0-9]* | 0) die "BENCH_WRITERS: $WRITERS is not a number of clients" ;; esac

# PostgreSQL: wanted when a pg_ scenario or writers is; possible when its
# programs (the server's, pgbouncer) and libpq's headers are installed
# (tests/pg.sh looks for the server's programs the same way).
pg_missing() { # prints what is missing, or nothing
	pg_found=
	for d in ${PG_BINDIR:-} /usr/lib/postgresql/*/bin; do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/psql" ]; then pg_found=$d; fi
	done
	if [ -z "$pg_found" ] && ! command -v initdb >/dev/null 2>&1; then
		echo "PostgreSQL's programs (initdb, pg_ctl, psql) are not installed"
	elif ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
		echo "pgbouncer is not installed"
	elif [ -z "${BENCH_PG_CGI:-}" ] && ! pkg-config --exists libpq 2>/dev/null &&
	    [ ! -f /usr/include/postgresql/libpq-fe.h ]; then
		echo "libpq's headers (libpq-dev) are not installed"
	fi
	return 0
}
PG_WANTED= PG_WHY= WRITERS_ON=0
for s in $SCENARIOS; do
	case $s in
	writers) WRITERS_ON=1 PG_WANTED="$PG_WANTED $s" ;;
	pg_config | pg_config_builtin | pg_consent | pg_scripts) PG_WANTED="$PG_WANTED $s" ;;
	pg_*) die "BENCH_SCENARIOS: no scenario $s (pg_config, pg_config_builtin, pg_consent, pg_scripts)" ;;
	esac
done
if [ -n "$PG_WANTED" ]; then
	if [ "$PG_MODE" = 0 ]; then PG_WHY="BENCH_PG=0"
	else PG_WHY=$(pg_missing)
	fi
fi
PG_ON=0
if [ -n "$PG_WANTED" ] && [ -z "$PG_WHY" ]; then PG_ON=1; fi
if [ -n "$PG_WHY" ]; then
	hint=
	[ "$PG_MODE" = 0 ] || hint="; sudo sh tools/deps.sh installs postgresql, libpq-dev and pgbouncer"
	say "PostgreSQL scenarios skipped ($(echo "${PG_WANTED# }" | sed 's/ /, /g')): $PG_WHY$hint"
	WRITERS_ON=0
fi
# From here SCENARIOS holds the table's rows only.
SCENARIOS=$(for s in $SCENARIOS; do
	case $s in writers) ;; pg_*) [ "$PG_ON" = 0 ] || echo "$s" ;; *) echo "$s" ;; esac
done | paste -sd ' ' -)

# --- 1. build -------------------------------------------------------------
mkdir -p "$B" "$W"
if [ "${BENCH_STATIC:-auto}" != 0 ]; then
	sh tools/static-libs.sh >"$W/static.log" 2>&1 ||
	    say "no static archives (see $W/static.log): cJSON and glibc stay shared"
fi
targets=
[ -n "${BENCH_CGI:-}" ] || targets="$B/cgi-bin/config $B/cgi-bin/consent $B/cgi-bin/scripts"
[ -n "${BENCH_CTL:-}" ] || targets="$targets $B/bin/consentctl"
if [ -n "$targets" ]; then
	say "building $targets (the default build: make B=$B)"
	# shellcheck disable=SC2086
	make -s -j2 B="$B" $targets \
	    >"$W/build.log" 2>&1 || { cat "$W/build.log" >&2; die "build failed"; }
fi
# The PostgreSQL endpoints: a build of their own (each binary links one
# store), linked shared (libpq's static archive needs the server's
# development files: Makefile, STORE).
PGCGI=
if [ "$PG_ON" = 1 ]; then
	if [ -n "${BENCH_PG_CGI:-}" ]; then
		PGCGI=$(cd "$BENCH_PG_CGI" && pwd)
	else
		say "building the PostgreSQL endpoints (make B=$PGB STORE=postgres)"
		make -s -j2 B="$PGB" STORE=postgres \
		    "$PGB/cgi-bin/config" "$PGB/cgi-bin/consent" "$PGB/cgi-bin/scripts" \
		    >"$W/build-pg.log" 2>&1 || { cat "$W/build-pg.log" >&2; die "build (STORE=postgres) failed"; }
		PGCGI=$top/$PGB/cgi-bin
	fi
	[ -x "$PGCGI/config" ] && [ -x "$PGCGI/consent" ] && [ -x "$PGCGI/scripts" ] ||
	    die "$PGCGI lacks config, consent or scripts"
fi
mkdir -p "$W/floor" "$W/www"
cc -std=c11 -O2 -static -o "$W/floor/hello" bench/hello.c || die "cannot link the static floor"
cc -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O2 -o "$W/spawn" bench/spawn.c
cc -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DBENCH_SANDBOX -iquote common -O2 -static \
    -o "$W/floor/hello-sandbox" bench/hello.c common/base/sandbox.c common/base/log.c ||
    die "cannot link the floor with sandbox_enter()"
CGI=$top/$B/cgi-bin
CTL=$top/$B/bin/consentctl
[ -z "${BENCH_CGI:-}" ] || CGI=$(cd "$BENCH_CGI" && pwd)
[ -z "${BENCH_CTL:-}" ] || CTL=$BENCH_CTL
link_mode=$(file -b "$CGI/consent" 2>/dev/null | grep -o 'statically linked\|dynamically linked' || true)
[ -n "$link_mode" ] || link_mode="(file(1) not installed)"

# --- 2. databases ---------------------------------------------------------
ctl() { "$CTL" --db "$W/empty-pristine.db" "$@"; }
rm -f "$W"/empty-pristine.db* "$W"/empty-pristine-*.db*
ctl init >/dev/null
ctl site add bench --name "Bench site" --domain bench.example --mau-cap 1000000000 >/dev/null
ctl config publish bench bench/fixtures/config.json >/dev/null
sqlite3 "$W/empty-pristine.db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null

stamp=$( { cat schema.sql bench/gen.sql; echo "$ROWS $SITES";
           sqlite3 "$W/empty-pristine.db" 'SELECT document FROM configs'; } | cksum)
big=$top/$B/big-pristine.db
if [ ! -f "$big" ] || [ "$(cat "$big.stamp" 2>/dev/null)" != "$stamp" ]; then
	say "generating $SITES sites and $ROWS consent entries (cached in $B for later runs)"
	rm -f "$big" "$big".*
	cp "$W/empty-pristine.db" "$big.tmp"
	sqlite3 -bail -cmd ".parameter set @sites $SITES" -cmd ".parameter set @rows $ROWS" \
	    "$big.tmp" < bench/gen.sql >/dev/null || die "bench/gen.sql failed"
	n=$(sqlite3 "$big.tmp" 'SELECT count(*) FROM consent_log')
	[ "$n" -ge "$ROWS" ] || die "gen.sql made $n consent entries, not $ROWS"
	rm -f "$big.tmp-wal" "$big.tmp-shm"
	mv "$big.tmp" "$big"
	echo "$stamp" > "$big.stamp"
fi
# A site with nothing published (config_builtin), in the empty log only:
# gen.sql numbers its sites from 2.
ctl site add builtin --name "Built-in site" --domain bench.example --mau-cap 1000000000 >/dev/null
sqlite3 "$W/empty-pristine.db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null

# Fresh working copies for every round: the "empty" log stays (nearly) empty
# and the 1M one holds exactly what gen.sql made plus one round of writes.
# Each variant has its own copies, so one build's WAL handling never meets
# another's.
# The copy is synced to disk before use: otherwise the first checkpoint's
# fsync of a 1M-row copy writes back the whole 0.5 GB just copied, and the
# benchmark measures its own cp (300 ms stalls in consent_1m's p99).
fresh_db() { # pristine copy
	rm -f "$2" "$2-wal" "$2-shm" "$2-journal"
	cp "$1" "$2"
	sync "$2"
}
# A variant whose folder (or its ../bin, or ../tools for a build from
# before consentctl moved to bin/) holds its consentctl gets its
# empty database made by that consentctl; else a copy of this tree's.
variant_pristine() { # name dir
	vctl=
	if [ -x "$2/consentctl" ]; then vctl=$2/consentctl
	elif [ -x "$2/../bin/consentctl" ]; then vctl=$2/../bin/consentctl
	elif [ -x "$2/../tools/consentctl" ]; then vctl=$2/../tools/consentctl
	fi
	rm -f "$W/empty-pristine-$1.db"*
	if [ -n "$vctl" ]; then
		"$vctl" --db "$W/empty-pristine-$1.db" init >/dev/null &&
		"$vctl" --db "$W/empty-pristine-$1.db" site add bench --name "Bench site" \
		    --domain bench.example --mau-cap 1000000000 >/dev/null &&
		"$vctl" --db "$W/empty-pristine-$1.db" config publish bench \
		    bench/fixtures/config.json >/dev/null &&
		"$vctl" --db "$W/empty-pristine-$1.db" site add builtin --name "Built-in site" \
		    --domain bench.example --mau-cap 1000000000 >/dev/null &&
		sqlite3 "$W/empty-pristine-$1.db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null ||
		    die "$vctl cannot make the variant's database"
	else
		cp "$W/empty-pristine.db" "$W/empty-pristine-$1.db"
	fi
}
fresh_dbs() {
	fresh_db "$W/empty-pristine.db" "$W/empty.db"
	fresh_db "$big" "$W/big.db"
	for v in $VARIANT_DIRS; do
		fresh_db "$W/empty-pristine-${v%%=*}.db" "$W/empty-${v%%=*}.db"
		[ "${BENCH_VARIANT_1M:-0}" != 1 ] || fresh_db "$big" "$W/big-${v%%=*}.db"
	done
	[ "$PG_ON" = 0 ] || pg_fresh_db
}

# PostgreSQL (PG_ON): tests/pg.sh's cluster and its pgbouncer in PGDIR,
# started once the cleanup below is in place (pg_start).  The database
# "bench_pristine" is made by consentctl as the empty log is, on the
# server's own socket: pgbouncer then holds no connection to it, and it can
# be the template of "bench", made afresh every round (pg_fresh_db: its DROP
# ... WITH (FORCE) ends the last round's server connections, which
# pgbouncer then forgets).  The endpoints reach "bench" through pgbouncer.
PGDIR= PG_DB= PG_VERSIONS= PG_POOL=
is_pg() { case ${1#fcgi/} in pg_*) return 0 ;; esac; return 1; }
pg_start() {
	PGDIR=$(mktemp -d /tmp/consent-bench-pg.XXXXXX)
	sh tests/pg.sh start "$PGDIR" || die "tests/pg.sh could not start PostgreSQL and pgbouncer in $PGDIR"
	# shellcheck disable=SC2034 # (read by tests/pg.sh's pg_psql)
	CONSENT_PG_DIR=$PGDIR
	# shellcheck source=tests/pg.sh
	. "$top/tests/pg.sh"
	# The shipped server_idle_timeout (the tests shorten it to 5 s, which
	# would make the pool start server processes again between scenarios).
	idle=$(sed -n '/^# test: server idle timeout$/{n;p;}' pgbouncer/pgbouncer.ini)
	sed -i "/^# test: server idle timeout\$/{n;s|.*|$idle|;}" "$PGDIR/pgbouncer.ini"
	sh tests/pg.sh restart "$PGDIR" pgbouncer || die "pgbouncer did not restart with $idle"
	pg_psql postgres -q -c 'CREATE DATABASE bench_pristine OWNER consent' >/dev/null ||
	    die "cannot make the PostgreSQL database"
	pctl() { "$CTL" --db "host=$PGDIR port=5432 dbname=bench_pristine user=consent" "$@" >/dev/null; }
	pctl init && pctl site add bench --name "Bench site" --domain bench.example --mau-cap 1000000000 &&
	pctl config publish bench bench/fixtures/config.json &&
	pctl site add builtin --name "Built-in site" --domain bench.example --mau-cap 1000000000 ||
	    die "$CTL cannot make the PostgreSQL database"
	PG_DB="host=$PGDIR port=6432 dbname=bench user=consent"
	PG_POOL=$(for k in pool_mode default_pool_size server_idle_timeout; do
		sed -n "s/^$k *= *\(.*\)/$k \1/p" "$PGDIR/pgbouncer.ini"
	done | paste -sd , - | sed 's/,/, /g')
	PG_VERSIONS="PostgreSQL $(pg_psql postgres -At -c "SELECT current_setting('server_version') || ' (shared_buffers ' || current_setting('shared_buffers') || ', fsync ' || current_setting('fsync') || ', synchronous_commit ' || current_setting('synchronous_commit') || ')'"), $("$(command -v pgbouncer || echo /usr/sbin/pgbouncer)" --version | head -n 1)"
}
pg_fresh_db() {
	pg_psql postgres -q -c 'SET client_min_messages = warning' \
	    -c 'DROP DATABASE IF EXISTS bench WITH (FORCE)' \
	    -c 'CREATE DATABASE bench TEMPLATE bench_pristine OWNER consent' ||
	    die "cannot make the round's PostgreSQL database"
}
pg_stop() {
	[ -n "$PGDIR" ] || return 0
	# (A failed start leaves nothing running, nor a cluster to stop.)
	if [ ! -f "$PGDIR/data/PG_VERSION" ] || sh tests/pg.sh stop "$PGDIR"; then rm -rf "$PGDIR"
	else say "PostgreSQL or pgbouncer may still run in $PGDIR (sh tests/pg.sh stop $PGDIR)"
	fi
	PGDIR=
}
# The CPU time the server (the postmaster, its children, and the children
# it has reaped) and pgbouncer have used so far, in clock ticks: "SERVER
# PGBOUNCER".  After the command name, which may hold spaces, a process's
# stat has its state, parent, ..., utime ($12), stime, cutime, cstime.
pg_cpu() {
	pm=$(head -n 1 "$PGDIR/data/postmaster.pid")
	pb=$(cat "$PGDIR/pgbouncer.pid")
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v pm="$pm" -v pb="$pb" '
		{ pid = $1; sub(/^.*\) /, "") }
		pid == pm { s += $12 + $13 + $14 + $15 }
		$2 == pm  { s += $12 + $13 }
		pid == pb { b += $12 + $13 }
		END { printf "%d %d\n", s, b }'
}

# --- 3. lighttpd ----------------------------------------------------------
# Scenario names: floor, ENDPOINT, ENDPOINT_1m, and ENDPOINT[_1m]@VARIANT;
# each but the floor again as fcgi/NAME, the same request to the FastCGI
# lighttpd.
VARIANT_DIRS=
for v in ${BENCH_VARIANTS:-}; do
	name=${v%%=*} dir=${v#*=}
	case $name in *[!A-Za-z0-9_-]*|"") die "BENCH_VARIANTS: bad name in $v" ;; esac
	[ -x "$dir/config" ] && [ -x "$dir/consent" ] && [ -x "$dir/scripts" ] ||
	    die "BENCH_VARIANTS: $dir lacks config, consent or scripts"
	dir=$(cd "$dir" && pwd)
	VARIANT_DIRS="$VARIANT_DIRS $name=$dir"
	SCENARIOS="$SCENARIOS config@$name consent@$name scripts@$name"
	case " $SCENARIOS " in *" config_builtin "*) SCENARIOS="$SCENARIOS config_builtin@$name" ;; esac
	variant_pristine "$name" "$dir"
	[ "${BENCH_VARIANT_1M:-0}" != 1 ] ||
	    SCENARIOS="$SCENARIOS config_1m@$name consent_1m@$name scripts_1m@$name"
done

# FastCGI: the builds that have the mode (libfcgi linked in), each scenario
# of theirs once more through the FastCGI lighttpd.
# (A static build holds libfcgi's strings, a shared one the names of its
# functions.)
has_fcgi() { grep -q 'FCGI_WEB_SERVER_ADDRS\|FCGX_Accept_r' "$1/config" 2>/dev/null; }
FSCENARIOS=
if [ "$FCGI_MODE" != 0 ]; then
	has_fcgi "$CGI" || say "$CGI/config has no FastCGI mode: CGI only for this tree's build"
	for s in $SCENARIOS; do
		[ "$s" != floor ] || continue
		d=$CGI
		for v in $VARIANT_DIRS; do
			case $s in *"@${v%%=*}") d=${v#*=} ;; esac
		done
		! is_pg "$s" || d=$PGCGI
		if has_fcgi "$d"; then FSCENARIOS="$FSCENARIOS fcgi/$s"; fi
	done
	[ "$PG_ON" = 0 ] || has_fcgi "$PGCGI" || say "$PGCGI/config has no FastCGI mode: CGI only for PostgreSQL"
	for v in $VARIANT_DIRS; do
		has_fcgi "${v#*=}" || say "variant ${v%%=*} has no FastCGI mode: CGI only"
	done
fi
ALL_SCENARIOS="$SCENARIOS$FSCENARIOS"

# The endpoint block of lighttpd/consent.conf without its mod_magnet rate
# limiter, for one URL prefix, binary folder and database.
conf_block() { # prefix cgibin db
	cat <<CONF
\$HTTP["url"] =^ "$1/functions/v1/" {
	alias.url = ( "$1/functions/v1/" => "$2/" )
	\$HTTP["url"] !~ "^$1/functions/v1/(config|consent|scripts)\$" {
		url.access-deny = ( "" )
	}
	cgi.assign = ( "" => "" )
	cgi.execute-x-only = "enable"
	setenv.add-environment = ( "CONSENT_DB" => "$3" )
	server.max-request-size = 128
}
CONF
}

# The same for lighttpd/consent-fastcgi.conf: its fastcgi.server with
# FCGI_PROCS config and FCGI_WRITER_PROCS consent and scripts processes,
# for one URL prefix (/fcgi...), binary
# folder, database and socket name.
fcgi_block() { # prefix cgibin db name
	printf '$HTTP["url"] =^ "%s/functions/v1/" {\n' "$1"
	printf '\t$HTTP["url"] !~ "^%s/functions/v1/(config|consent|scripts)$" {\n' "$1"
	printf '\t\turl.access-deny = ( "" )\n\t}\n\tserver.max-request-size = 128\n\tfastcgi.server = (\n'
	for e in config consent scripts; do
		cat <<CONF
		"$1/functions/v1/$e" => ((
			"bin-path" => "$2/$e",
			"socket" => "$SOCKETS/$4-$e.sock",
			"max-procs" => $(if [ "$e" = config ]; then echo "$FCGI_PROCS"; else echo "$FCGI_WRITER_PROCS"; fi),
			"bin-environment" => ( "CONSENT_DB" => "$3", "CONSENT_FCGI_MAX_REQUESTS" => "1000000000" ),
			"bin-copy-environment" => ( "TZ" ),
			"check-local" => "disable",
		)),
CONF
	done
	printf '\t)\n}\n'
}

# The two servers: "cgi" (the floor and mod_cgi) and "fcgi" (mod_fastcgi,
# started for the FastCGI scenarios of a round only, so that no FastCGI
# process holds a database open while CGI processes are measured: a CGI
# process that is not the first connection skips SQLite's WAL index
# rebuild and would look cheaper than it is).
write_conf() { # mode port
	{
		cat <<CONF
# Written by bench/run.sh ($1): the floor, and lighttpd's endpoint block
# without the rate limiter once per build and database.
server.document-root = "$W/www"
server.bind = "127.0.0.1"
server.port = $2
server.errorlog = "$W/lighttpd-$1-error.log"
server.modules = ( "mod_access", "mod_alias", "mod_setenv", "mod_cgi", "mod_fastcgi" )
url.access-deny = ( ".db", ".db-wal", ".db-shm", ".db-journal" )
\$HTTP["url"] =^ "/floor/" {
	alias.url = ( "/floor/" => "$W/floor/" )
	cgi.assign = ( "" => "" )
	cgi.execute-x-only = "enable"
}
CONF
		if [ "$1" = cgi ]; then
			conf_block "" "$CGI" "$W/empty.db"
			conf_block "/big" "$CGI" "$W/big.db"
			for v in $VARIANT_DIRS; do
				conf_block "/v/${v%%=*}" "${v#*=}" "$W/empty-${v%%=*}.db"
				conf_block "/v/${v%%=*}/big" "${v#*=}" "$W/big-${v%%=*}.db"
			done
			[ "$PG_ON" = 0 ] || conf_block "/pg" "$PGCGI" "$PG_DB"
		else
			# Only the blocks some scenario uses: each holds processes.
			# (path_of sets p and v: these loops use other names.)
			for pre in "" /big /pg $(for vd in $VARIANT_DIRS; do echo "/v/${vd%%=*}" "/v/${vd%%=*}/big"; done); do
				used=
				for fs in $FSCENARIOS; do
					case $(path_of "$fs") in "/fcgi$pre/functions/v1/"*) used=1 ;; esac
				done
				[ -n "$used" ] || continue
				vn=${pre#/v/}; vn=${vn%/big}
				case $pre in
				/v/*) bdir=$(binary_of "config@$vn"); bdir=${bdir%/config} ;;
				*) bdir=$CGI; vn= ;;
				esac
				case $pre in
				/pg) bdir=$PGCGI bdb=$PG_DB ;;
				*/big) bdb=$W/big${vn:+-$vn}.db ;;
				*) bdb=$W/empty${vn:+-$vn}.db ;;
				esac
				fcgi_block "/fcgi$pre" "$bdir" "$bdb" "$(echo "x$pre" | tr -c 'A-Za-z0-9_\n-' '_')"
			done
		fi
	} > "$W/lighttpd-$1.conf"
}

pid_cgi= pid_fcgi= base_cgi= base_fcgi=
stop_server() { # mode
	eval "p=\$pid_$1"
	if [ -n "$p" ]; then
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	fi
	eval "pid_$1="
}
SOCKETS=
cleanup() {
	stop_server fcgi
	stop_server cgi
	[ -z "$SOCKETS" ] || rm -rf "$SOCKETS"
	pg_stop
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ "$PG_ON" = 1 ]; then
	pg_start
	say "PostgreSQL and pgbouncer (tests/pg.sh) in $PGDIR: $PG_VERSIONS"
fi

# Unix socket paths are short (108 bytes): the FastCGI sockets live in /tmp.
SOCKETS=$(mktemp -d "${TMPDIR:-/tmp}/consent-bench.XXXXXX")
rm -f "$W"/www/run-*.txt
echo "$$" > "$W/www/run-$$.txt"
next_port=${BENCH_PORT:-18100}
start_server() { # mode: on the first free port from next_port; sets base_MODE
	port=$next_port last=$((next_port + 50))
	while [ "$port" -le "$last" ]; do
		write_conf "$1" "$port"
		: > "$W/lighttpd-$1-error.log"
		lighttpd -D -f "$W/lighttpd-$1.conf" 2>>"$W/lighttpd-$1-error.log" &
		eval "pid_$1=\$!"
		i=0
		while [ $i -lt 50 ]; do
			eval "kill -0 \$pid_$1" 2>/dev/null || break
			# The answer must be this server's (its own document root): a
			# lighttpd of another run on the port would answer the floor too.
			if [ "$(curl -s "http://127.0.0.1:$port/run-$$.txt")" = "$$" ]; then
				eval "base_$1=http://127.0.0.1:$port"
				next_port=$((port + 1))
				return 0
			fi
			sleep 0.1
			i=$((i + 1))
		done
		stop_server "$1"
		port=$((port + 1))
	done
	cat "$W/lighttpd-$1-error.log" >&2
	die "lighttpd ($1) did not start on 127.0.0.1:$next_port-$last"
}

# --- 4. scenarios ---------------------------------------------------------
# Every helper takes the scenario's name with or without fcgi/.
is_fcgi() { case $1 in fcgi/*) return 0 ;; esac; return 1; }
variant_of() { set -- "${1#fcgi/}"; case $1 in *@*) echo "${1#*@}" ;; *) echo "" ;; esac; }
# The request of a scenario: its name without fcgi/ and pg_.
request_of() { e=${1#fcgi/}; echo "${e#pg_}"; }
endpoint_of() { e=$(request_of "$1"); e=${e%@*}; e=${e%_1m}; echo "${e%_builtin}"; }
path_of() {
	case $1 in floor) echo /floor/hello; return ;; esac
	v=$(variant_of "$1")
	p=${v:+/v/$v}
	! is_pg "$1" || p=/pg
	case ${1%@*} in *_1m) p=$p/big ;; esac
	is_fcgi "$1" && p=/fcgi$p
	echo "$p/functions/v1/$(endpoint_of "$1")"
}
base_of() { if is_fcgi "$1"; then echo "$base_fcgi"; else echo "$base_cgi"; fi; }
query_of() {
	case $(request_of "$1") in
	config_builtin*) echo "?site_key=builtin" ;;
	config*) echo "?site_key=bench" ;;
	*) echo "" ;;
	esac
}
body_of() {
	case $(request_of "$1") in
	consent*) echo "$top/bench/fixtures/consent.json" ;;
	scripts*) echo "$top/bench/fixtures/scripts.json" ;;
	*) echo "" ;;
	esac
}
expect_of() { case $(request_of "$1") in consent*) echo 201 ;; *) echo 200 ;; esac; }
binary_of() {
	case $1 in floor) echo "$W/floor/hello"; return ;; esac
	if is_pg "$1"; then echo "$PGCGI/$(endpoint_of "$1")"; return; fi
	v=$(variant_of "$1") dir=$CGI
	for d in $VARIANT_DIRS; do [ "${d%%=*}" != "$v" ] || dir=${d#*=}; done
	echo "$dir/$(endpoint_of "$1")"
}
db_of() {
	if is_pg "$1"; then echo "$PG_DB"; return; fi
	v=$(variant_of "$1")
	case ${1%@*} in *_1m) echo "$W/big${v:+-$v}.db" ;; *) echo "$W/empty${v:+-$v}.db" ;; esac
}

# One request of each scenario must answer what it should before any timing.
preflight() { # scenarios
	for s in "$@"; do
		body=$(body_of "$s")
		url=$(base_of "$s")$(path_of "$s")
		if [ -n "$body" ]; then
			sed "s/@ID@/preflight-$(echo "$s" | tr @/ --)/g" "$body" > "$W/preflight.json"
			code=$(curl -s -o "$W/preflight.out" -w '%{http_code}' \
			    -H 'Origin: https://www.bench.example' -H 'CF-IPCountry: DE' \
			    -H 'Content-Type: application/json' --data-binary @"$W/preflight.json" "$url")
		else
			code=$(curl -s -o "$W/preflight.out" -w '%{http_code}' \
			    -H 'Origin: https://www.bench.example' -H 'CF-IPCountry: DE' "$url$(query_of "$s")")
		fi
		if [ "$code" != "$(expect_of "$s")" ]; then
			say "$s answered $code:"
			head -c 500 "$W/preflight.out" >&2
			tail -n 5 "$W"/lighttpd-*-error.log >&2
			die "preflight failed"
		fi
	done
}

# The round's PostgreSQL database is new: its pool in pgbouncer starts its
# server processes (about 6 ms of server CPU each, issue 13) before
# anything is timed, as on a site that runs.
pg_warm() {
	BENCH_SALT=warm wrk -t2 -c32 -d1s --timeout 10s -s bench/wrk.lua \
	    "$base_cgi$(path_of pg_config)$(query_of pg_config)" >/dev/null 2>&1 ||
	    die "wrk failed on pg_config (warming pgbouncer's pool)"
}

# One "wrk" line, under LABEL (the scenario's name unless given); for a
# PostgreSQL scenario also a "dbcpu" line: the requests, and the server's
# and pgbouncer's clock ticks over the run.  The salt names the label, so
# that no two runs of a round on one database send the same visitor or
# domain (a FastCGI run's after its CGI run's, for one).
run_wrk() { # round scenario connections [label]
	body=$(body_of "$2") label=${4:-$2}
	cpu0=
	! is_pg "$2" || cpu0=$(pg_cpu)
	out=$(BENCH_BODY=$body BENCH_SALT="r$1c$3-$(echo "$label" | tr @/ --)-$$" \
	    wrk -t2 -c"$3" -d"${SECS}s" --timeout 10s -s bench/wrk.lua \
	    "$(base_of "$2")$(path_of "$2")$(query_of "$2")" 2>&1) || { printf '%s\n' "$out" >&2; die "wrk failed on $2"; }
	[ -z "$cpu0" ] || cpu1=$(pg_cpu)
	line=$(printf '%s\n' "$out" | grep '^RESULT ') || { printf '%s\n' "$out" >&2; die "wrk gave no result on $2"; }
	# RESULT requests=N duration_us=N p50_us=N p99_us=N errors=N status_errors=N
	printf '%s\n' "$line" | sed 's/[a-z0-9_]*=//g' | awk -v r="$1" -v s="$label" -v c="$3" \
	    '{ printf "wrk\t%s\t%s\t%s\t%.1f\t%d\t%d\t%d\n", r, s, c, $2 * 1e6 / $3, $4, $5, $6 + $7 }' >> "$RAW"
	[ -n "$cpu0" ] || return 0
	printf '%s %s %s\n' "$line" "$cpu0" "$cpu1" | sed 's/[a-z0-9_]*=//g' | awk -v r="$1" -v s="$label" -v c="$3" \
	    '{ printf "dbcpu\t%s\t%s\t%s\t%d\t%d\t%d\n", r, s, c, $2, $10 - $8, $11 - $9 }' >> "$RAW"
}

# DIRECT_N runs of a scenario's binary, evicted from the page cache first
# (spawn -E), as a web server would run it; one "direct" line (KIND is
# "direct", or "pair" for the floor's run paired with a scenario).
run_direct() { # round scenario kind [binary]
	round=$1 s=$2 kind=$3 prog=${4:-$(binary_of "$2")}
	body=$(body_of "$s")
	method=GET
	[ -z "$body" ] || method=POST
	set -- -E -n "$DIRECT_N" -w 5 -s "d$1-$(echo "$s" | tr @ -)-$$" \
	    -e GATEWAY_INTERFACE=CGI/1.1 -e SERVER_SOFTWARE=lighttpd -e SERVER_PROTOCOL=HTTP/1.1 \
	    -e SERVER_NAME=127.0.0.1 -e SERVER_ADDR=127.0.0.1 -e SERVER_PORT="${base_cgi##*:}" \
	    -e REQUEST_METHOD=$method -e "QUERY_STRING=$(query_of "$s" | sed 's/^?//')" \
	    -e "REQUEST_URI=$(path_of "$s")$(query_of "$s")" -e "SCRIPT_NAME=$(path_of "$s")" \
	    -e REMOTE_ADDR=127.0.0.1 -e REMOTE_PORT=40000 -e DOCUMENT_ROOT="$W/www" \
	    -e HTTP_HOST=127.0.0.1 -e HTTP_ORIGIN=https://www.bench.example \
	    -e "HTTP_USER_AGENT=Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36" \
	    -e "HTTP_ACCEPT_LANGUAGE=de-DE,de;q=0.9,en;q=0.8" -e HTTP_CF_IPCOUNTRY=DE \
	    -e "CONSENT_DB=$(db_of "$s")"
	[ -z "$body" ] || set -- "$@" -b "$body" -e CONTENT_TYPE=application/json
	out=$("$W/spawn" "$@" "$prog") || { printf '%s\n' "$out" >&2; die "direct runs of $s failed"; }
	# n=N mean_us=N p50_us=N p99_us=N cpu_us=N bad=N
	printf '%s\n' "$out" | sed 's/[a-z0-9_]*=//g' | awk -v r="$round" -v s="$s" -v k="$kind" \
	    '{ printf "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\n", k, r, s, $2, $3, $4, $5, $6 }' >> "$RAW"
}

: > "$RAW"
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
start_server cgi
say "lighttpd (CGI) $pid_cgi on $base_cgi"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	fresh_dbs
	if [ "$r" = 1 ]; then
		preflight $SCENARIOS
		[ "$WRITERS_ON" = 0 ] || preflight consent pg_consent
	fi
	[ "$PG_ON" = 0 ] || pg_warm
	say "round $r of $ROUNDS: wrk ${SECS}s x $(echo $ALL_SCENARIOS | wc -w) scenarios x 2,$( [ "$WRITERS_ON" = 0 ] || echo " $WRITERS writers on each store,") then $DIRECT_N direct runs of each binary and of the floor beside it"
	for c in 8 32; do
		for s in $SCENARIOS; do
			run_wrk "$r" "$s" "$c"
		done
	done
	# WRITERS clients posting consents to each store, the first store
	# alternating from round to round.
	if [ "$WRITERS_ON" = 1 ]; then
		ws="consent pg_consent"
		[ $((r % 2)) = 1 ] || ws="pg_consent consent"
		for s in $ws; do
			run_wrk "$r" "$s" "$WRITERS" "writers/$s"
		done
	fi
	if [ -n "$FSCENARIOS" ]; then
		start_server fcgi
		[ "$r" -gt 1 ] || { say "lighttpd (FastCGI, $FCGI_PROCS config and $FCGI_WRITER_PROCS consent and scripts processes) on $base_fcgi"; }
		preflight $FSCENARIOS
		for c in 8 32; do
			for s in $FSCENARIOS; do
				run_wrk "$r" "$s" "$c"
			done
		done
		stop_server fcgi
	fi
	# Each binary paired with the floor, both evicted from the page cache
	# the same way: the ratio of the pair is the binary's "x floor".
	for s in $SCENARIOS; do
		[ "$s" != floor ] || continue
		run_direct "$r" "$s" pair "$W/floor/hello"
		run_direct "$r" "$s" direct
	done
	r=$((r + 1))
done
# What sandbox_enter() (no-new-privs, non-dumpable, the seccomp filter)
# adds to a process: the floor with and without it, alternated, the median
# of the per-pair differences of median wall and CPU time.
say "sandbox_enter(): the floor with and without it, 3 x $SANDBOX_N runs each"
pairs=
i=1
while [ "$i" -le 3 ]; do
	a=$("$W/spawn" -n "$SANDBOX_N" -w 20 "$W/floor/hello") || die "the floor failed: $a"
	b=$("$W/spawn" -n "$SANDBOX_N" -w 20 "$W/floor/hello-sandbox") || die "the sandboxed floor failed: $b"
	pairs="$pairs$a $b
"
	i=$((i + 1))
done
sandbox=$(printf '%s' "$pairs" | sed 's/[a-z0-9_]*=//g' | awk '
	{ w[NR] = $9 - $3; c[NR] = $11 - $5 }
	function med(a, t) {
		if (a[1] > a[2]) { t = a[1]; a[1] = a[2]; a[2] = t }
		if (a[2] > a[3]) { t = a[2]; a[2] = a[3]; a[3] = t }
		if (a[1] > a[2]) { t = a[1]; a[1] = a[2]; a[2] = t }
		return a[2]
	}
	END { printf "%+.3f ms wall, %+.3f ms CPU", med(w) / 1000, med(c) / 1000 }')
say "sandbox_enter(): $sandbox per process"
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
cleanup

# --- 5. table -------------------------------------------------------------
# Per round, each scenario's req/s (CGI and FastCGI) over the CGI floor's of
# the same round and connection count, and each binary's direct median
# over the median of the floor run beside it ("x floor": lower is better);
# the table shows medians over rounds.
table=$(awk -F '\t' -v rounds="$ROUNDS" -v scenarios="$SCENARIOS" '
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
	if (n == 0) return 0
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function ratio_of(s, c,   l, r) {
	l = ""
	for (r = 1; r <= rounds; r++)
		if (rr[r, "floor", c] > 0 && rr[r, s, c] > 0) l = l " " rr[r, s, c] / rr[r, "floor", c]
	return median(l)
}
function dev(a, b) { return b > 0 ? a / b - 1 : 0 }
function q(a, b) { return b > 0 ? a / b : 0 }
function within(d) { return d >= -0.15 && d <= 0.15 }
$1 == "wrk"    { rps[$3, $4] = rps[$3, $4] " " $5; rr[$2, $3, $4] = $5
                 p50[$3, $4] = p50[$3, $4] " " $6; p99[$3, $4] = p99[$3, $4] " " $7
                 err[$3, $4] += $8; seen[$3] = 1 }
$1 == "direct" { d50[$3] = d50[$3] " " $5; dcpu[$3] = dcpu[$3] " " $7; dr[$2, $3] = $5 }
$1 == "pair"   { d50["floor"] = d50["floor"] " " $5; dcpu["floor"] = dcpu["floor"] " " $7; pr[$2, $3] = $5 }
END {
	n = split(scenarios, sc, " ")
	xt["config"] = 2.5; xt["consent"] = 3.9; xt["scripts"] = 3.9; xt["config_builtin"] = 2.5
	ft["config"] = 2.0; ft["consent"] = 1.0; ft["scripts"] = 1.0; ft["config_builtin"] = 2.0
	for (i = 1; i <= n; i++) {
		s = sc[i]; f = "fcgi/" s
		for (c = 8; c <= 32; c += 24) { ratio[s, c] = ratio_of(s, c); ratio[f, c] = ratio_of(f, c) }
		l = ""
		for (r = 1; r <= rounds; r++) if (pr[r, s] > 0) l = l " " dr[r, s] / pr[r, s]
		x[s] = (s == "floor") ? 1 : median(l)
		insc[s] = 1
	}
	printf "| scenario | direct p50 ms | direct CPU ms | x floor | CGI req/s c8 | CGI ratio c8 | CGI p50 / p99 ms c8 | FastCGI req/s c8 | FastCGI ratio c8 | FastCGI p50 / p99 ms c8 | CGI ratio c32 | FastCGI ratio c32 | targets |\n"
	printf "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
	for (i = 1; i <= n; i++) {
		s = sc[i]; f = "fcgi/" s; fm = (f in seen)
		base = s; sub(/@.*$/, "", base); sub(/_1m$/, "", base)
		empty = s; sub(/_1m/, "", empty)
		if (s == "floor") t = "floor"
		else if (s ~ /^pg_/) {
			# PostgreSQL (issue 13): beside the same request to SQLite.
			cp = substr(s, 4)
			if (!(cp in insc)) t = "no SQLite row (" cp ") to compare"
			else {
				t = sprintf("vs SQLite (%s): direct %.2fx the time; CGI %.2fx", cp, q(x[s], x[cp]), q(ratio[s, 8], ratio[cp, 8]))
				if (fm && (("fcgi/" cp) in seen)) t = t sprintf(", FastCGI %.2fx", q(ratio[f, 8], ratio["fcgi/" cp, 8]))
				t = t " the req/s"
			}
		} else if (s == empty) {
			t = sprintf("direct at most %.1fx: %s", xt[base], x[s] <= xt[base] ? "met" : "MISSED")
			if (fm) t = t sprintf("; FastCGI at least %.1f: %s", ft[base], ratio[f, 8] >= ft[base] ? "met" : "MISSED")
		} else {
			dx = dev(x[s], x[empty]); dc = dev(ratio[s, 8], ratio[empty, 8]); df = dev(ratio[f, 8], ratio["fcgi/" empty, 8])
			good = within(dx) && within(dc) && (!fm || within(df))
			t = sprintf("%s, vs empty (limit 15%%): direct %+.0f%%, CGI %+.0f%%", good ? "met" : "MISSED", dx * 100, dc * 100)
			if (fm) t = t sprintf(", FastCGI %+.0f%%", df * 100)
		}
		if (fm) fcols = sprintf("%.0f | %.2f | %.1f / %.1f", median(rps[f, 8]), ratio[f, 8], median(p50[f, 8]) / 1000, median(p99[f, 8]) / 1000)
		else fcols = "| |"
		printf "| %s | %.2f | %.2f | %.2f | %.0f | %.2f | %.1f / %.1f | %s | %.2f | %s | %s |\n", s,
		    median(d50[s]) / 1000, median(dcpu[s]) / 1000, x[s],
		    median(rps[s, 8]), ratio[s, 8], median(p50[s, 8]) / 1000, median(p99[s, 8]) / 1000,
		    fcols, ratio[s, 32], fm ? sprintf("%.2f", ratio[f, 32]) : "", t
		if (err[s, 8] + err[s, 32] > 0) errs = errs sprintf(" %s:%d", s, err[s, 8] + err[s, 32])
		if (err[f, 8] + err[f, 32] > 0) errs = errs sprintf(" %s:%d", f, err[f, 8] + err[f, 32])
	}
	if (errs != "") printf "\nRequests that failed (socket errors or HTTP status >= 400):%s\n", errs
}' "$RAW")

# PostgreSQL: the writers' req/s on each store (medians over rounds, and
# the median of the rounds' ratios), and the database's CPU per request
# of each PostgreSQL scenario, over all its rounds and connection counts
# (pgbouncer's apart: it runs on each web host, the server on the
# database's).
pgtable=
if [ "$PG_ON" = 1 ]; then
	pgtable=$(awk -F '\t' -v rounds="$ROUNDS" -v writers="$WRITERS" -v secs="$SECS" \
	    -v hz="$(getconf CLK_TCK)" -v won="$WRITERS_ON" '
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
	if (n == 0) return 0
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 == "wrk" && $3 ~ /^writers\// {
	st = substr($3, 9)
	wr[st] = wr[st] " " $5; wrr[$2, st] = $5
	wp50[st] = wp50[st] " " $6; wp99[st] = wp99[st] " " $7; werr[st] += $8
}
$1 == "dbcpu" {
	k = $3
	if (!(k in req)) { keys[++nk] = k; conns[k] = $4 }
	else if (!((k, $4) in cs)) conns[k] = conns[k] ", " $4
	cs[k, $4] = 1; req[k] += $5; srv[k] += $6; bnc[k] += $7
}
END {
	if (won) {
		l = ""
		for (r = 1; r <= rounds; r++)
			if (wrr[r, "consent"] > 0 && wrr[r, "pg_consent"] > 0) l = l " " wrr[r, "pg_consent"] / wrr[r, "consent"]
		printf "%d concurrent writers (wrk -c%d, %d s, consent through mod_cgi, a new visitor each request; each store in turn every round):\n\n", writers, writers, secs
		printf "| store | req/s | p50 / p99 ms | x SQLite | failed |\n|---|---:|---:|---:|---:|\n"
		printf "| SQLite (consent) | %.0f | %.1f / %.1f | 1.00 | %d |\n", median(wr["consent"]),
		    median(wp50["consent"]) / 1000, median(wp99["consent"]) / 1000, werr["consent"]
		printf "| PostgreSQL (pg_consent) | %.0f | %.1f / %.1f | %.2f | %d |\n\n", median(wr["pg_consent"]),
		    median(wp50["pg_consent"]) / 1000, median(wp99["pg_consent"]) / 1000, median(l), werr["pg_consent"]
	}
	printf "The database'"'"'s CPU per request: the server'"'"'s (the postmaster and all its children, utime + stime from /proc, so its background processes too, which weigh more per request at lower rates) and pgbouncer'"'"'s, over every wrk run of the scenario:\n\n"
	printf "| scenario | connections | requests | server ms / request | pgbouncer ms / request | requests/s per server core |\n|---|---|---:|---:|---:|---:|\n"
	for (i = 1; i <= nk; i++) {
		k = keys[i]
		if (req[k] == 0) continue
		# (A ">" among the arguments of printf would redirect its output.)
		ms = srv[k] * 1000 / hz / req[k]
		per_core = "-"
		if (ms > 0) per_core = sprintf("%.0f", 1000 / ms)
		printf "| %s | %s | %d | %.3f | %.3f | %s |\n", k, conns[k], req[k], ms, bnc[k] * 1000 / hz / req[k], per_core
	}
}' "$RAW")
fi

elapsed=$(( $(date +%s) - start ))
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || echo "?")
mem=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || echo "?")
fcgi_note="FastCGI: not measured (no build with the mode, or BENCH_FCGI=0)"
pg_note="PostgreSQL: not among the scenarios"
[ -z "$PG_WHY" ] || pg_note="PostgreSQL: not measured ($PG_WHY)"
[ "$PG_ON" = 0 ] || pg_note="PostgreSQL (issue 13): $PG_VERSIONS; tests/pg.sh's cluster (Unix sockets only) behind pgbouncer/pgbouncer.ini ($PG_POOL); endpoints \`make B=$PGB STORE=postgres\`: $(file -b "$PGCGI/consent" 2>/dev/null | grep -o 'statically linked\|dynamically linked' || echo "?") (libpq; the direct runs evict the binary, not its shared libraries); a database made by consentctl like the empty log, afresh every round; pg_NAME is NAME's request to it, compared in the targets column with SQLite's in the same run"
[ -z "$FSCENARIOS" ] || fcgi_note="FastCGI: a second lighttpd with lighttpd/consent-fastcgi.conf's fastcgi.server (no rate limiter), $FCGI_PROCS config processes and $FCGI_WRITER_PROCS each of consent and scripts, started for the FastCGI scenarios of each round"
{
	echo "# Benchmark results"
	echo
	echo "Written by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'); see docs/performance.md."
	echo
	echo "- Machine: $(nproc) CPUs ($cpu), $mem, $(uname -sr)"
	echo "- Load average before / after: $load_before / $load_after"
	echo "- Build: \`make B=$B\` (the default build, tools/static-libs.sh's archives): $link_mode; floor: bench/hello.c, \`cc -O2 -static\`"
	echo "- Tools: $(lighttpd -v 2>&1 | head -n 1 | cut -d' ' -f1), wrk $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f2), SQLite $(sqlite3 --version | cut -d' ' -f1)"
	echo "- Each figure is the median of $ROUNDS interleaved rounds: wrk ${SECS} s per scenario at 8 and 32 connections (2 threads), CGI then FastCGI, then $DIRECT_N direct runs of each binary, each beside $DIRECT_N of the floor"
	echo "- $fcgi_note"
	echo "- $pg_note"
	echo "- 1M rows: $ROWS consent entries, $SITES sites (bench/gen.sql); the empty log holds only this run's own requests"
	echo "- Ratios: req/s over the CGI floor's req/s in the same round (higher is better); x floor: a binary's direct median over the floor's run beside it, both evicted from the page cache first (lower is better)"
	echo "- Targets (issue 14): x floor at most 2.5 (config), 3.9 (consent, scripts); FastCGI ratio at 8 connections at least 2.0 (config), 1.0 (consent, scripts); every 1M-row figure within 15% of the empty log's"
	echo "- sandbox_enter() adds $sandbox per process (median of 3 x $SANDBOX_N runs of the floor with and without it)"
	echo "- Whole run: ${elapsed} s"
	echo
	printf '%s\n' "$table"
	[ -z "$pgtable" ] || printf '\n## PostgreSQL\n\n%s\n' "$pgtable"
} > "$RESULTS"
printf '%s\n' "$table"
[ -z "$pgtable" ] || printf '\n%s\n' "$pgtable"
say "wrote bench/results.md (raw figures in $RAW); ${elapsed} s"
