#!/bin/bash
# t0060-layers.sh: the folders of common/ are its layers, and they point one
# way.  The order is the Makefile's LAYERS (make print-layers), the one list:
# a file includes only headers of its own folder's layer or a lower one,
# each backend of the store (store/sqlite/, store/pg/) only its own private
# headers and library, and README's drawing names the layers in that order.
. "$(dirname "$0")/setup.sh"

C=$TOP/common
layers=$(make -s -C "$TOP" print-layers)
check test -n "$layers" "make print-layers names the layers"

rank() { # the rank of a path under common/ (0 lowest), or nothing
	local top=${1%%/*} i=0 l
	for l in $layers; do
		[ "$l" = "$top" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
}

# Every folder of common/ is a layer (or a backend under store/, or the
# built-in texts' data); no source lies loose at the top.
bad=0
for d in "$C"/*/; do
	d=${d%/}; d=${d#"$C"/}
	if [ -z "$(rank "$d/")" ]; then notok "common/$d/ is a folder but not a layer (Makefile LAYERS)"; bad=1; fi
done
for l in $layers; do
	[ -d "$C/$l" ] || { notok "layer $l has no folder common/$l/"; bad=1; }
done
loose=$(find "$C" -maxdepth 1 -type f | wc -l)
[ "$loose" -le 25 ] || { notok "common/ holds $loose files at its top (at most 25)"; bad=1; }
[ -z "$(find "$C" -maxdepth 1 -type f -name '*.[ch]')" ] || { notok "a C source at common/'s top, outside every layer"; bad=1; }
for d in $(cd "$C" && find . -mindepth 2 -type d | sed 's|^\./||'); do
	case $d in store/sqlite | store/pg | config/i18n) ;;
	*) notok "common/$d/: a folder below a layer that t0060 does not know"; bad=1 ;;
	esac
done
[ "$bad" = 0 ] && ok "common/ is its layers' folders: $layers"

# Object names are file names: GNU ar keeps one of two of the same name.
dups=$(find "$C" -name '*.c' -printf '%f\n' | sort | uniq -d)
check test -z "$dups" "every source of common/ has a name of its own${dups:+ (twice: $dups)}"

# The includes: quoted ones name a path under common/ (or a header make
# generates into gen/), of the same layer or a lower one.
generated=" settings.h "
bad=0
for f in $(cd "$C" && find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort); do
	mine=$(rank "$f")
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$C/$f"); do
		case $generated in *" $h "*) continue ;; esac
		if [ ! -f "$C/$h" ]; then
			notok "common/$f includes \"$h\", which is no path under common/"
			bad=1
			continue
		fi
		theirs=$(rank "$h")
		if [ "$theirs" -gt "$mine" ]; then
			notok "common/$f (layer ${f%%/*}) includes $h (layer ${h%%/*}, higher)"
			bad=1
		fi
		# A backend's headers are its own; the backends' common interface
		# (store_ops.h, store_fns.h, store_admin_fns.h, store_rows.h,
		# store_report_json.h, store_copy_parts.h) is the store layer's
		# alone.
		case $h in
		store/sqlite/* | store/pg/*)
			case $f in "${h%/*}"/*) ;; *) notok "common/$f includes $h, private to ${h%/*}/"; bad=1 ;; esac ;;
		store/store_ops.h | store/store_fns.h | store/store_admin_fns.h | store/store_rows.h | store/store_report_json.h | store/store_copy_parts.h)
			case $f in store/*) ;; *) notok "common/$f includes $h, private to the store"; bad=1 ;; esac ;;
		esac
	done
done
[ "$bad" = 0 ] && ok "common/: every include points down a layer or stays in its own"

# Each backend sees its own library only: SQLite's folder never libpq,
# PostgreSQL's never SQLite, and nothing else either.
bad=0
for f in $(cd "$C" && find . -name '*.[ch]' | sed 's|^\./||'); do
	if grep -Eq '^#include <libpq-fe\.h>' "$C/$f"; then
		case $f in store/pg/*) ;; *) notok "common/$f includes libpq-fe.h: only store/pg/ may"; bad=1 ;; esac
	fi
	if grep -Eq '^#include <sqlite3\.h>' "$C/$f"; then
		case $f in store/sqlite/*) ;; *) notok "common/$f includes sqlite3.h: only store/sqlite/ may"; bad=1 ;; esac
	fi
done
[ "$bad" = 0 ] && ok "each backend of the store sees its own library only"

bad=0
for f in "$TOP"/cgi-bin/*.c "$TOP"/consentctl/*.[ch] "$TOP"/fuzz/*.[ch] "$TOP"/tests/unit/*.[ch]; do
	if grep -Eq '^#include "store/(sqlite/|pg/|store_ops\.h|store_fns\.h|store_admin_fns\.h|store_rows\.h|store_report_json\.h|store_copy_parts\.h)|^#include <(sqlite3|libpq-fe)\.h>' "$f"; then
		notok "${f#"$TOP"/} reaches a backend of the store: only the store may"
		bad=1
	fi
done
[ "$bad" = 0 ] && ok "endpoints, consentctl, fuzz harnesses and unit tests see only the store's headers"

# The endpoints are the request path: nothing of the admin layer, nor the
# admin store's header (store.h is theirs; t0062 checks what they link).
# cgi-bin/admin.c is the dashboard's program, the admin layer's own.
bad=0
for f in "$TOP"/cgi-bin/config.c "$TOP"/cgi-bin/consent.c "$TOP"/cgi-bin/scripts.c; do
	if grep -Eq '^#include "(admin/|store/store_admin\.h")' "$f"; then
		notok "${f#"$TOP"/} includes the admin layer or store/store_admin.h"
		bad=1
	fi
done
[ "$bad" = 0 ] && ok "the endpoints include nothing of the admin layer nor the admin store"
check test "$(ls "$TOP"/cgi-bin/*.c | wc -l)" -eq 4 "cgi-bin/ holds the three endpoints and admin.c (a new program must be placed above)"

if grep -rn 'SELECT\|INSERT\|UPDATE\|DELETE FROM' "$TOP"/cgi-bin/*.c "$TOP"/consentctl/*.c \
    $(find "$C" -name '*.c' -not -path "$C/store/*") >/dev/null 2>&1; then
	notok "SQL outside the store"
else
	ok "no SQL outside the store"
fi
check test -z "$(grep -rl 'sqlite3' "$C" --include='*.h' | grep -v '/store/sqlite/')" "no header outside store/sqlite/ names SQLite"

# README's drawing of the layout names the layers in the Makefile's order.
last=0 bad=0
for l in $layers; do
	n=$(grep -nE "^ +$l/" "$TOP/README.md" | head -1 | cut -d: -f1)
	if [ -z "$n" ] || [ "$n" -le "$last" ]; then
		notok "README's drawing names the layer $l/ after the one before it"
		bad=1
	else
		last=$n
	fi
done
[ "$bad" = 0 ] && ok "README's drawing names the layers in their order"
