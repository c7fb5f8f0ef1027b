#!/bin/bash
# t0062-request-store.sh: an endpoint links the store's request path and
# nothing of its administration.  The names come from the one list of the
# admin store (common/store/store_admin_fns.h): for each, store_NAME (the
# dispatcher), sqlite_store_NAME and pg_store_NAME (the backends), and the
# backends' admin tables.  consentctl holds them all, so the check can fail;
# the dashboard's program (cgi-bin/admin) is no endpoint: it holds the
# admin store and the dashboard's code, which the endpoints must not.
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

# The three endpoints: none holds an admin store symbol, nor the
# dashboard's (api_request, password_verify).
n=0
for b in config consent scripts; do
	f=$BUILD/cgi-bin/$b
	[ -f "$f" ] && [ -x "$f" ] || { notok "cgi-bin/$b: no such program"; continue; }
	n=$((n + 1))
	defined "$f" > "$T/$b.syms"
	if ! grep -qx store_site_get "$T/$b.syms"; then
		notok "cgi-bin/$b: nm finds no store_site_get (stripped, or no such program?)"
		continue
	fi
	held=$(LC_ALL=C comm -12 "$T/admin" "$T/$b.syms" | tr '\n' ' ')
	check test -z "$held" "cgi-bin/$b holds no symbol of the admin store${held:+ (holds: $held)}"
	held=$(grep -xE 'api_request|password_verify|store_account_[a-z_]+|store_audit_add' "$T/$b.syms" | tr '\n' ' ')
	check test -z "$held" "cgi-bin/$b holds nothing of the dashboard${held:+ (holds: $held)}"
done
check test "$n" -eq 3 "the build's endpoints were read ($n)"

# The dashboard's program holds the admin store (the part it calls) and
# its own code, so that the checks above could fail.
defined "$BUILD/cgi-bin/admin" > "$T/dash.syms"
for s in api_request password_verify store_account_count store_session_get store_audit_add; do
	check grep -qx "$s" "$T/dash.syms" "cgi-bin/admin holds $s"
done
held=$(LC_ALL=C comm -12 "$T/admin" "$T/dash.syms" | wc -l)
check test "$held" -ge 10 "cgi-bin/admin holds the admin store's symbols ($held)"

# consentctl links the administration of both backends.
defined "$BUILD/bin/consentctl" > "$T/ctl.syms"
missing=$(LC_ALL=C comm -23 "$T/admin" "$T/ctl.syms" | tr '\n' ' ')
check test -z "$missing" "consentctl holds every symbol of the admin store${missing:+ (lacks: $missing)}"

