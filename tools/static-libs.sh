#!/bin/sh
# static-libs.sh [--check] [DIR [LIB...]]: make the static archives that
# let a plain `make`, and `make STORE=postgres`, link the endpoints fully
# static (no dynamic loader, no shared glibc: docs/performance.md), in DIR
# (default build/static of the repository, where the Makefile looks):
#
#   libcjson.a    from Debian's cJSON source package: Debian ships cJSON as a
#                 shared library only;
#   libsqlite3.a  from Debian's sqlite3 source package, built lean (LEAN
#                 below): Debian's own libsqlite3.a carries FTS, R-Tree,
#                 sessions, mutexes and extension loading, which every
#                 request pays for at start and none uses;
#   libpq.a, libpgcommon_shlib.a, libpgport_shlib.a
#                 from Debian's postgresql-NN source package (that of the
#                 installed libpq-dev), built lean (PQ_CONFIGURE below), for
#                 the endpoints of STORE=postgres; made only when libpq-dev
#                 is installed.  Debian's own libpq.a needs the server's
#                 libpgcommon/libpgport and links GSSAPI, LDAP and OpenSSL:
#                 its shared libpq costs every request some 4 ms at start.
#
# Each source is the package Debian built the installed -dev package from
# (same version, Debian's patches applied in series order), fetched with
# `apt-get source` through a private apt state under DIR/apt whose deb-src
# entries are derived from the system's own apt sources (each "deb" entry
# turned into "deb-src"), so no mirror is named here and the system's apt
# setup is not touched; apt checks what it fetches against the signed
# index.  Each build is then verified against the installed package: its
# header must be byte for byte the one the -dev package installed.
#
# For cJSON and SQLite the mirror must still hold the source of the
# installed version: after a security update reaches the mirror but not yet
# this system, apt-get source fails, and `apt-get upgrade` then this script
# again mends it.  For libpq, when the mirror lacks the installed
# version's source for whatever cause (15.20's was missing though the index
# named it), the newest source of the same major version the mirror offers
# is built instead, and said so in one line: the client protocol and
# libpq's interface do not change within a major version, and the header
# check below still holds the build to the installed headers the endpoints
# are compiled against.
#
# DIR/NAME.stamp records the -dev version (and the options) an archive was
# built from, and for libpq the source version too; an archive is rebuilt
# when the -dev version or the options change, and a libpq archive of
# another source version is current only while its major version is the
# installed libpq-dev's.  With
# --check nothing is built: exit 0 when the archives of each LIB (default
# cjson sqlite3; pq for libpq) are current, 1 otherwise (the Makefile's
# test).  Without it, LIB defaults to cjson sqlite3, and pq when libpq-dev
# is installed.  Otherwise says on stderr which archive
# it made, if any (nothing on stdout); exits non-zero with the cause on
# stderr when a step fails (the archive of the other library may still
# have been made).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
dir=${1:-$top/build/static}
[ $# -gt 0 ] && shift
libs=${*:-}

# The lean SQLite.  Each option, and why the project can do without what it
# removes (every sqlite3_* call and PRAGMA of common/ and tools/ was checked
# against this list; the suite runs on it):
#  SQLITE_THREADSAFE=0             one thread per process: CGI, and FastCGI's
#                                  accept loop; no mutexes to take per call
#                                  (sqlite_db_open passes SQLITE_OPEN_NOMUTEX anyway)
#  SQLITE_DEFAULT_MEMSTATUS=0      no global allocation statistics per malloc
#                                  (nothing calls sqlite3_memory_used)
#  SQLITE_DQS=0                    double quotes are identifiers only, as
#                                  every statement here writes them
#  SQLITE_OMIT_DEPRECATED          no deprecated interface is called
#  SQLITE_OMIT_SHARED_CACHE        sqlite_db_open asks for SQLITE_OPEN_PRIVATECACHE
#  SQLITE_OMIT_LOAD_EXTENSION      nothing loads extensions (and the
#                                  binaries are static: nothing could)
#  SQLITE_OMIT_PROGRESS_CALLBACK   no progress handler; skips a check per
#                                  virtual-machine step
#  SQLITE_LIKE_DOESNT_MATCH_BLOBS  Debian's choice too
#  SQLITE_MAX_EXPR_DEPTH=0         no depth tracking while parsing: every
#                                  SQL text is the project's own, prepared
#  SQLITE_USE_ALLOCA               the parser's scratch on the stack
#  SQLITE_OMIT_TCL_VARIABLE        no $name parameters; ?, ?N and :name stay
# Kept from Debian's debian/rules on purpose:
#  SQLITE_SECURE_DELETE            deleted content is overwritten by default,
#                                  as with the packaged library (erase and
#                                  purge also ask for it: store_proof.c)
#  SQLITE_MAX_VARIABLE_NUMBER=250000 and SQLITE_MAX_SCHEMA_RETRY=25, Debian's
#                                  limits, so no statement meets another limit
# JSON (json_each, json_extract, json_valid, json_object), WAL, the math
# functions, mmap and the foreign keys are SQLite's defaults and stay.  Left
# out of Debian's list because nothing here uses them: FTS3/4/5, R-Tree,
# sessions and the pre-update hook, dbstat, column metadata, soundex,
# unlock_notify, UPDATE/DELETE ... LIMIT, URI filenames (sqlite_db_open opens
# none); and lookaside stays on (Debian turns it off), it is the faster
# allocator for SQLite's small objects.
LEAN="-DSQLITE_THREADSAFE=0 -DSQLITE_DEFAULT_MEMSTATUS=0 -DSQLITE_DQS=0
 -DSQLITE_OMIT_DEPRECATED -DSQLITE_OMIT_SHARED_CACHE -DSQLITE_OMIT_LOAD_EXTENSION
 -DSQLITE_OMIT_PROGRESS_CALLBACK -DSQLITE_LIKE_DOESNT_MATCH_BLOBS
 -DSQLITE_MAX_EXPR_DEPTH=0 -DSQLITE_USE_ALLOCA -DSQLITE_OMIT_TCL_VARIABLE
 -DSQLITE_SECURE_DELETE -DSQLITE_MAX_VARIABLE_NUMBER=250000 -DSQLITE_MAX_SCHEMA_RETRY=25"
LEAN=$(echo $LEAN)
CFLAGS_LIB="-O2 -fno-strict-aliasing"

# The lean libpq: what the endpoints need is a Unix socket to the host's
# pgbouncer (docs/postgres.md; their sandbox refuses every other socket
# family) and SCRAM-SHA-256 over it.  Left out, with why:
#  --without-openssl   libpq never negotiates TLS on a Unix socket, and the
#                      endpoints can open no other (pgbouncer does TLS to
#                      the primary); SCRAM then uses src/common's own
#                      SHA-256/HMAC and /dev/urandom for its nonce.  A
#                      connection string asking sslmode=require (or
#                      verify-*) is refused with libpq's own message instead
#                      of being ignored on the socket as the shared libpq does
#  GSSAPI, LDAP (service lookup), PAM, SELinux, systemd: server or
#                      Kerberos/LDAP features no endpoint uses
#  ICU, readline, zlib, lz4, zstd, LLVM, libxml, Perl/Python/Tcl: not in
#                      libpq at all, or only for the server and psql;
#                      --without-* so that configure needs none of their
#                      -dev packages
#  NLS                 messages stay English (the endpoints log them)
# Kept from Debian's debian/rules (postgresql-common's postgresql.mk):
#  --sysconfdir=/etc/postgresql-common, where libpq looks for
#                      pg_service.conf, and --with-pgport=5432
PQ_CONFIGURE="--without-openssl --without-gssapi --without-ldap --without-pam
 --without-selinux --without-systemd --without-icu --without-readline
 --without-zlib --without-lz4 --without-zstd --without-llvm --without-libxml
 --without-libxslt --without-perl --without-python --without-tcl --disable-nls
 --sysconfdir=/etc/postgresql-common --with-pgport=5432"
PQ_CONFIGURE=$(echo $PQ_CONFIGURE)
# The archives of each library, the first named after it.
archives() {
	case $1 in
	pq) echo libpq.a libpgcommon_shlib.a libpgport_shlib.a ;;
	*) echo "lib$1.a" ;;
	esac
}

say() { echo "static-libs.sh: $*" >&2; }

# stamp NAME: what DIR/NAME.stamp must hold for the archive to be current
# ("" when the -dev package is not installed).
stamp() {
	v=$(dpkg-query -W -f '${Version}' "lib$1-dev" 2>/dev/null) || v=
	[ -n "$v" ] || return 0
	case $1 in
	sqlite3) printf '%s %s %s\n' "$v" "$CFLAGS_LIB" "$LEAN" ;;
	pq) printf '%s %s %s\n' "$v" "$CFLAGS_LIB" "$PQ_CONFIGURE" ;;
	*) printf '%s %s\n' "$v" "$CFLAGS_LIB" ;;
	esac
}
# major VERSION: PostgreSQL's major version of a Debian version
# ("15" of "15.20-0+deb12u1"; no epoch in these packages).
major() { echo "${1%%.*}"; }
# current NAME: the archives exist and were built from what is installed:
# the stamp's first line is stamp NAME, and its second, "source PKG
# VERSION", names a source of the installed major version (another version
# than the installed one only for libpq: fetch).
current() {
	s=$(stamp "$1")
	[ -n "$s" ] || return 1
	for a in $(archives "$1"); do
		[ -f "$dir/$a" ] || return 1
	done
	[ "$(head -n 1 "$dir/$1.stamp" 2>/dev/null)" = "$s" ] || return 1
	from=$(sed -n '2s/^source [^ ]* //p' "$dir/$1.stamp")
	[ -z "$from" ] || [ "$(major "$from")" = "$(major "${s%% *}")" ]
}

if [ "$check" = 1 ]; then
	for lib in ${libs:-cjson sqlite3}; do
		current "$lib" || exit 1
	done
	exit 0
fi
if [ -z "$libs" ]; then
	libs="cjson sqlite3"
	[ -n "$(stamp pq)" ] && libs="$libs pq"
fi

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# The private apt state, made once per run: the system's sources as deb-src.
apt_setup() {
	rm -rf "$dir/apt"
	mkdir -p "$dir/apt/lists/partial" "$dir/apt/sources.list.d"
	sl=/etc/apt/sources.list sp=/etc/apt/sources.list.d/
	eval "$(apt-config shell sl Dir::Etc::sourcelist/f sp Dir::Etc::sourceparts/d)"
	# One-line format: "deb [opts] uri suite comp..." becomes "deb-src ...".
	for f in "$sl" "$sp"*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f"
	done > "$dir/apt/sources.list"
	# deb822 format: every stanza whose Types name "deb" gets "Types: deb-src".
	for f in "$sp"*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
		/(^|\n)Types:[^\n]*[[:space:]]deb([[:space:]]|$)/ {
			sub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); sub(/^\n/, ""); print }' \
		    "$f" > "$dir/apt/sources.list.d/$(basename "$f")"
	done
	if ! grep -q deb-src "$dir/apt/sources.list" &&
	   ! grep -qs '^Types: deb-src' "$dir/apt/sources.list.d/"*.sources; then
		say "no deb entry in the system's apt sources to derive deb-src from"
		return 1
	fi
	apt_opts="-o Dir::Etc::SourceList=$dir/apt/sources.list -o Dir::Etc::SourceParts=$dir/apt/sources.list.d
 -o Dir::State::Lists=$dir/apt/lists -o APT::Sandbox::User=root"
	# A source without deb-src (a third-party repository) fails its part of
	# the update; what the others fetched is still enough for apt-get source.
	# shellcheck disable=SC2086
	apt-get -qq $apt_opts update >&2 || say "apt-get update reported errors; trying anyway"
}

# download NAME PKG VERSION: the source package's files into $dir/src/NAME
# (emptied first); fails as apt-get source does.
download() {
	rm -rf "$dir/src/$1"
	mkdir -p "$dir/src/$1"
	# shellcheck disable=SC2086
	(cd "$dir/src/$1" && apt-get -qq $apt_opts source --download-only "$2=$3") >&2
}

# same_major PKG VERSION: the versions of source package PKG that the
# mirror's index names with VERSION's major, newest first (dpkg's order).
same_major() {
	# shellcheck disable=SC2086
	vs=$(apt-cache $apt_opts showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p' | sort -u)
	while [ -n "$vs" ]; do
		top_v=
		for v in $vs; do
			if [ -z "$top_v" ] || dpkg --compare-versions "$v" gt "$top_v"; then
				top_v=$v
			fi
		done
		[ "$(major "$top_v")" = "$(major "$2")" ] && echo "$top_v"
		vs=$(echo "$vs" | grep -vxF -- "$top_v") || vs=
	done
}

# fetch NAME [any]: unpack the source package of libNAME-dev, at its
# installed version, into $dir/src/NAME, Debian's patches applied (by hand:
# dpkg-source may be absent); sets $src to the unpacked tree.  With "any",
# when the mirror lacks that version's source, the newest of the same
# major version it has instead; the version taken goes to
# $dir/src/NAME.source as "source PKG VERSION".
fetch() {
	srcpkg=$(dpkg-query -W -f '${source:Package}' "lib$1-dev")
	srcver=$(dpkg-query -W -f '${source:Version}' "lib$1-dev")
	if ! download "$1" "$srcpkg" "$srcver"; then
		[ "${2:-}" = any ] || return 1
		want=$srcver
		srcver=
		for v in $(same_major "$srcpkg" "$want"); do
			[ "$v" != "$want" ] || continue
			say "no source of $srcpkg $want on the mirror: trying $v"
			if download "$1" "$srcpkg" "$v"; then
				srcver=$v
				break
			fi
		done
		[ -n "$srcver" ] || {
			say "the mirror has no source of $srcpkg of major version $(major "$want")"
			return 1
		}
	fi
	echo "source $srcpkg $srcver" > "$dir/src/$1.source"
	grep -qx "Version: $srcver" "$dir/src/$1/${srcpkg}_"*.dsc || {
		say "the fetched $srcpkg is not version $srcver"
		return 1
	}
	orig=$(ls "$dir/src/$1/${srcpkg}_"*.orig.tar.* | grep -v -- '-www\.' | head -n 1)
	(cd "$dir/src/$1" && tar xf "$orig")
	src=$(find "$dir/src/$1" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	tar xf "$dir/src/$1/${srcpkg}_"*.debian.tar.* -C "$src"
	if [ -f "$src/debian/patches/series" ]; then
		for p in $(sed -e 's/#.*//' "$src/debian/patches/series"); do
			patch -s -d "$src" -p1 < "$src/debian/patches/$p"
		done
	fi
}

# same_header BUILT INSTALLED: the verification against the package.
same_header() {
	cmp -s "$1" "$2" || {
		say "$1 differs from the installed $2: not the packaged version"
		return 1
	}
}

build_cjson() {
	fetch cjson
	same_header "$src/cJSON.h" /usr/include/cjson/cJSON.h
	# shellcheck disable=SC2086
	${CC:-cc} $CFLAGS_LIB -c "$src/cJSON.c" -o "$dir/src/cjson/cJSON.o"
	rm -f "$dir/libcjson.a"
	ar rcs "$dir/libcjson.a" "$dir/src/cjson/cJSON.o"
}

# SQLite through its own configure, so that the amalgamation is compiled
# with the generated sqlite_cfg.h (-D_HAVE_SQLITE_CONFIG_H): without it
# SQLite assumes neither fdatasync nor usleep and silently falls back to
# fsync and to sleeps of whole seconds.  The options go to make as OPTS, so
# the parser (lemon) and keyword table are generated for them too.
build_sqlite3() {
	fetch sqlite3
	(cd "$src" && CC="${CC:-cc}" CFLAGS="$CFLAGS_LIB" ./configure -q --disable-shared \
	    --enable-static --disable-tcl --disable-readline --disable-editline \
	    --disable-threadsafe --disable-load-extension --disable-fts3 --disable-fts4 \
	    --disable-fts5 --disable-rtree --disable-session &&
	 make -s OPTS="$LEAN" libsqlite3.la) > "$dir/src/sqlite3.log" 2>&1 || {
		tail -n 20 "$dir/src/sqlite3.log" >&2
		say "the SQLite build failed (the whole log: $dir/src/sqlite3.log)"
		return 1
	}
	grep -q '^#define HAVE_FDATASYNC 1' "$src/sqlite_cfg.h" &&
	grep -q '^#define HAVE_USLEEP 1' "$src/sqlite_cfg.h" || {
		say "configure found no fdatasync or usleep (sqlite_cfg.h)"
		return 1
	}
	same_header "$src/sqlite3.h" /usr/include/sqlite3.h
	rm -f "$dir/libsqlite3.a"
	cp "$src/.libs/libsqlite3.a" "$dir/libsqlite3.a"
}

# libpq through PostgreSQL's configure (pg_config.h, and pg_config_ext.h
# checked below), then the headers the build generates (errcodes.h...) and
# only the three archives: src/port and src/common in
# their _shlib variants, the ones libpq itself is linked with
# (src/interfaces/libpq/Makefile: SHLIB_LINK_INTERNAL).  Debian's patches
# are applied (one sets the default socket directory /var/run/postgresql).
build_pq() {
	fetch pq any
	for h in src/interfaces/libpq/libpq-fe.h src/interfaces/libpq/libpq-events.h \
	    src/include/postgres_ext.h; do
		same_header "$src/$h" "/usr/include/postgresql/${h##*/}"
	done
	# shellcheck disable=SC2086
	(cd "$src" && CC="${CC:-cc}" CFLAGS="$CFLAGS_LIB" ./configure -q $PQ_CONFIGURE &&
	 make -s -C src/backend generated-headers &&
	 make -s -C src/port libpgport_shlib.a &&
	 make -s -C src/common libpgcommon_shlib.a &&
	 make -s -C src/interfaces/libpq all-static-lib) > "$dir/src/pq.log" 2>&1 || {
		tail -n 20 "$dir/src/pq.log" >&2
		say "the libpq build failed (the whole log: $dir/src/pq.log)"
		return 1
	}
	same_header "$src/src/include/pg_config_ext.h" /usr/include/postgresql/pg_config_ext.h
	! grep -E -q '^#define (USE_OPENSSL|ENABLE_GSS|USE_LDAP|ENABLE_NLS) ' "$src/src/include/pg_config.h" || {
		say "configure enabled OpenSSL, GSSAPI, LDAP or NLS in libpq (pg_config.h)"
		return 1
	}
	for a in interfaces/libpq/libpq.a common/libpgcommon_shlib.a port/libpgport_shlib.a; do
		rm -f "$dir/${a##*/}"
		cp "$src/src/$a" "$dir/${a##*/}"
	done
}

rc=0
need=
for lib in $libs; do
	current "$lib" && continue
	if [ -z "$(stamp "$lib")" ]; then
		say "lib$lib-dev is not installed"
		rc=1
	else
		need="$need $lib"
	fi
done
[ -n "$need" ] || exit $rc
apt_setup
for lib in $need; do
	s=$(stamp "$lib")
	rm -f "$dir/$lib.stamp"
	# Each build in a subshell under set -e (which an "if" would switch off).
	set +e
	(set -e; "build_$lib")
	r=$?
	set -e
	if [ "$r" = 0 ]; then
		from=$(cat "$dir/src/$lib.source")
		printf '%s\n%s\n' "$s" "$from" > "$dir/$lib.stamp"
		made="made $dir/$(archives "$lib" | sed 's| | and |g')"
		if [ "${from##* }" = "$(dpkg-query -W -f '${source:Version}' "lib$lib-dev")" ]; then
			say "$made from the source of lib$lib-dev ${s%% *}"
		else
			say "$made from the source of ${from#source }, not that of the installed lib$lib-dev ${s%% *} (missing from the mirror; same major version)"
		fi
	else
		say "could not make lib$lib.a"
		rc=1
	fi
done
exit $rc
