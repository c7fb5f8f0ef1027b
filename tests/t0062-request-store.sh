#!/bin/bash
# t0062-request-store.sh: an endpoint links the store's request path and
# nothing of its administration.  The names come from the one list of the
# admin store (common/store/store_admin_fns.h): for each, store_NAME (the
# dispatcher), sqlite_store_NAME and pg_store_NAME (the backends), and the
# backends' admin tables.  consentctl holds them all, so the check can fail.
. "$(dirname "$0")/setup.sh"

fns=$(sed -n 's/^STORE_FN(int, \([a-z_0-9]*\),.*/\1/p' "$TOP/common/store/store_admin_fns.h")
check test "$(echo "$fns" | wc -w)" -ge 40 "store_admin_fns.h lists the admin store's functions"
admin=$(for f in $fns; do echo "store_$f"; echo "sqlite_store_$f"; echo "pg_store_$f"; done
        echo store_sqlite_admin_ops; echo store_pg_admin_ops)
printf '%s\n' $admin | LC_ALL=C sort -u > "$T/admin"

# The global symbols a program defines, one a line, sorted.
defined() { nm -g --defined-only "$1" 2>/dev/null | awk '{print $3}' | LC_ALL=C sort -u; }

for b in config consent scripts; do
	f=$BUILD/cgi-bin/$b
	defined "$f" > "$T/$b.syms"
	if ! grep -qx store_site_get "$T/$b.syms"; then
		notok "cgi-bin/$b: nm finds no store_site_get (stripped, or no such program?)"
		continue
	fi
	held=$(LC_ALL=C comm -12 "$T/admin" "$T/$b.syms" | tr '\n' ' ')
	check test -z "$held" "cgi-bin/$b holds no symbol of the admin store${held:+ (holds: $held)}"
done

# consentctl links the administration of both backends.
defined "$BUILD/bin/consentctl" > "$T/ctl.syms"
missing=$(LC_ALL=C comm -23 "$T/admin" "$T/ctl.syms" | tr '\n' ' ')
check test -z "$missing" "consentctl holds every symbol of the admin store${missing:+ (lacks: $missing)}"

