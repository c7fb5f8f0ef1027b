#!/bin/bash
# t0060-layers.sh: the layers of README "Layout" point one way: no file
# includes a header of a higher layer, only the SQLite store sees SQLite
# (db.h, store_sql.h) and only the PostgreSQL store libpq (store_pg.h).
. "$(dirname "$0")/setup.sh"

# The layer of a file of common/ by its base name (README "Layout").
layer() {
	case $1 in
	limits | log | http | resp | valid | origin | lang | geo | ua | tracker | \
	tracker_data | hash | uuid | defaults | sandbox | configdoc | settings | clock | io) echo 0 ;;
	db) echo 1 ;;
	store | store_*) echo 2 ;;
	resolve | proof) echo 3 ;;
	prepare) echo 4 ;;
	request | consent_req | scripts_req | scriptrules | report | serve) echo 5 ;;
	*) echo unknown ;;
	esac
}

bad=0
for f in "$TOP"/common/*.[ch]; do
	base=$(basename "$f"); base=${base%.*}
	mine=$(layer "$base")
	if [ "$mine" = unknown ]; then
		notok "common/$(basename "$f") has a layer in README Layout and this test"
		bad=1
		continue
	fi
	for h in $(sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f"); do
		theirs=$(layer "$h")
		if [ "$theirs" = unknown ] || [ "$theirs" -gt "$mine" ]; then
			notok "common/$(basename "$f") (layer $mine) includes $h.h (layer $theirs)"
			bad=1
		fi
		case $h in
		db) case $base in db | store_sql) ;; *) notok "common/$(basename "$f") includes db.h"; bad=1 ;; esac ;;
		store_sql) case $base in store | store_pg*) notok "common/$(basename "$f") includes store_sql.h"; bad=1 ;;
		           store_*) ;; *) notok "common/$(basename "$f") includes store_sql.h"; bad=1 ;; esac ;;
		store_pg) case $base in store_pg*) ;; *) notok "common/$(basename "$f") includes store_pg.h"; bad=1 ;; esac ;;
		store_ops | store_fns) case $base in store | store_*) ;; *) notok "common/$(basename "$f") includes $h.h"; bad=1 ;; esac ;;
		esac
	done
done
[ "$bad" = 0 ] && ok "common/: every include points down a layer or stays in its own"

# The two backends of the store (store_ops.h) see only their own library:
# SQLite's files never libpq, PostgreSQL's never SQLite, store.c neither.
bad=0
for f in "$TOP"/common/*.[ch]; do
	base=$(basename "$f"); base=${base%.*}
	case $base in store_pg*) mine=postgres ;; db | store_*) mine=sqlite ;; *) mine=none ;; esac
	if grep -Eq '^#include <libpq-fe\.h>' "$f" && [ "$mine" != postgres ]; then
		notok "common/$(basename "$f") includes libpq-fe.h: only the PostgreSQL store may"
		bad=1
	fi
	if grep -Eq '^#include <sqlite3\.h>|^#include "(db|store_sql)\.h"' "$f" && [ "$mine" != sqlite ]; then
		notok "common/$(basename "$f") reaches SQLite: only the SQLite store may"
		bad=1
	fi
done
[ "$bad" = 0 ] && ok "each backend of the store sees its own library only"

bad=0
for f in "$TOP"/cgi-bin/*.c "$TOP"/tools/*.[ch] "$TOP"/fuzz/*.[ch] "$TOP"/tests/unit/*.[ch]; do
	if grep -Eq '^#include "(db|store_sql|store_pg|store_ops|store_fns)\.h"|^#include <(sqlite3|libpq-fe)\.h>' "$f"; then
		notok "${f#"$TOP"/} reaches a backend of the store: only the store may"
		bad=1
	fi
done
[ "$bad" = 0 ] && ok "endpoints, consentctl, fuzz harnesses and unit tests see only store.h"

if grep -rn 'SELECT\|INSERT\|UPDATE\|DELETE FROM' "$TOP"/cgi-bin/*.c "$TOP"/tools/*.c \
    $(ls "$TOP"/common/*.c | grep -v '/store\|/db\.c') >/dev/null 2>&1; then
	notok "SQL outside the store"
else
	ok "no SQL outside the store"
fi
check test -z "$(grep -l 'sqlite3' "$TOP"/common/*.h | grep -v '/db\.h$\|/store_sql\.h$')" "no header but db.h and store_sql.h names SQLite"
