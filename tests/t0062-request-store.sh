#!/bin/bash
# t0062-request-store.sh: an endpoint links the store's request path and
# nothing of its administration.  The names come from the one list of the
# admin store (common/store/store_admin_fns.h): for each, store_NAME (the
# dispatcher), sqlite_store_NAME and pg_store_NAME (the backends), and the
# backends' admin tables.  consentctl holds them all, so the check can fail.
. "$(dirname "$0")/setup.sh"

if ! command -v nm >/dev/null 2>&1; then
	skip "no nm (binutils): the endpoints' symbols are not read"
	exit 0
fi

fns=$(sed -n 's/^STORE_FN(int, \([a-z_0-9]*\),.*/\1/p' "$TOP/common/store/store_admin_fns.h")
check test "$(echo "$fns" | wc -w)" -ge 40 "store_admin_fns.h lists the admin store's functions"
admin=$(for f in $fns; do echo "store_$f"; echo "sqlite_store_$f"; echo "pg_store_$f"; done
        echo store_sqlite_admin_ops; echo store_pg_admin_ops)
printf '%s\n' $admin | LC_ALL=C sort -u > "$T/admin"

# The global symbols a program defines, one a line, sorted.
defined() { nm -g --defined-only "$1" 2>/dev/null | awk '{print $3}' | LC_ALL=C sort -u; }

# Every endpoint the build made (cgi-bin/ holds their sources too when
# BUILD is the checkout).
n=0
for f in "$BUILD"/cgi-bin/*; do
	case $f in *.c) continue ;; esac
	[ -f "$f" ] && [ -x "$f" ] || continue
	b=${f##*/}
	n=$((n + 1))
	defined "$f" > "$T/$b.syms"
	if ! grep -qx store_site_get "$T/$b.syms"; then
		notok "cgi-bin/$b: nm finds no store_site_get (stripped, or no such program?)"
		continue
	fi
	held=$(LC_ALL=C comm -12 "$T/admin" "$T/$b.syms" | tr '\n' ' ')
	check test -z "$held" "cgi-bin/$b holds no symbol of the admin store${held:+ (holds: $held)}"
done
check test "$n" -ge 3 "the build's endpoints were read ($n)"

# consentctl links the administration of both backends.
defined "$BUILD/bin/consentctl" > "$T/ctl.syms"
missing=$(LC_ALL=C comm -23 "$T/admin" "$T/ctl.syms" | tr '\n' ' ')
check test -z "$missing" "consentctl holds every symbol of the admin store${missing:+ (lacks: $missing)}"

