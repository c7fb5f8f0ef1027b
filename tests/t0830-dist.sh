#!/bin/bash
# t0830-dist.sh: make dist's archive (tools/dist.sh; ADMIN.md 9): one
# folder consent-VERSION/ with the tree a shared-hosting customer uploads,
# the programs fully static, the modes the host wants, no settings file and
# no database (an upload over an older release keeps both); the same tree
# gives the same bytes whatever the umask, the time zone or the time of
# packing, and another SOURCE_DATE_EPOCH gives other bytes.
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/deploy/dist.sh"
for t in readelf tar gzip; do
	command -v $t >/dev/null 2>&1 || { skip "$t is not installed: release checks not run"; exit 0; }
done
dist_archive
ok "make dist: $(basename "$DIST_TGZ"), $(stat -c %s "$DIST_TGZ") bytes"

# The tree, by name, mode and owner.
tar -tvzf "$DIST_TGZ" | awk '{ print $1, $2, $6 }' > "$T/list"
cat > "$T/want" <<LIST
drwxr-xr-x 0/0 $DIST_NAME/
-rw-r--r-- 0/0 $DIST_NAME/.htaccess
-rw-r--r-- 0/0 $DIST_NAME/INSTALL
drwxr-xr-x 0/0 $DIST_NAME/admin/
-rw-r--r-- 0/0 $DIST_NAME/admin/.htaccess
LIST
for f in $(cd "$TOP/build/admin" && ls | sort); do
	echo "-rw-r--r-- 0/0 $DIST_NAME/admin/$f"
done >> "$T/want"
cat >> "$T/want" <<LIST
drwxr-xr-x 0/0 $DIST_NAME/cgi-bin/
-rw-r--r-- 0/0 $DIST_NAME/cgi-bin/.htaccess
-rwxr-xr-x 0/0 $DIST_NAME/cgi-bin/admin
-rwxr-xr-x 0/0 $DIST_NAME/cgi-bin/config
-rwxr-xr-x 0/0 $DIST_NAME/cgi-bin/consent
-rwxr-xr-x 0/0 $DIST_NAME/cgi-bin/scripts
-rw-r--r-- 0/0 $DIST_NAME/consent.js
-rwxr-xr-x 0/0 $DIST_NAME/consentctl
drwxr-xr-x 0/0 $DIST_NAME/data/
-rw-r--r-- 0/0 $DIST_NAME/data/.htaccess
LIST
if diff "$T/want" "$T/list" > "$T/diff"; then
	ok "the archive holds the release tree (names sorted, modes 0755/0644, owner 0/0): $(wc -l < "$T/list") entries"
else
	notok "the archive's tree differs: $(tr '\n' ' ' < "$T/diff")"
fi
check test "$(tar -tvzf "$DIST_TGZ" | awk '{ print $4, $5 }' | sort -u | wc -l)" = 1 "every entry has the same mtime"

mkdir "$T/x"
tar -xzf "$DIST_TGZ" -C "$T/x"
R=$T/x/$DIST_NAME
for p in cgi-bin/config cgi-bin/consent cgi-bin/scripts cgi-bin/admin consentctl; do
	if readelf -lW "$R/$p" | grep -q INTERP || readelf -dW "$R/$p" | grep -q NEEDED; then
		notok "$p is statically linked: readelf shows $(readelf -dW "$R/$p" | grep NEEDED | tr -s ' ' | head -n 3 | tr '\n' ' ')"
	else
		ok "$p is statically linked: no ELF interpreter, no NEEDED library"
	fi
done
check cmp -s "$R/consent.js" "$TOP/build/sdk/consent.js" "consent.js is the built SDK"
check cmp -s "$R/admin/admin.js" "$TOP/build/admin/admin.js" "admin/ is the built dashboard"
check cmp -s "$R/.htaccess" "$TOP/dist/htaccess" "the top .htaccess is dist/htaccess"
check cmp -s "$R/data/.htaccess" "$TOP/apache/htaccess-data" "data/.htaccess denies all (apache/htaccess-data)"
check grep -qx "Require all denied" "$R/data/.htaccess" "data/.htaccess: Require all denied"
check grep -q "^Consent banner $(cat "$TOP/VERSION"): installing" "$R/INSTALL" "INSTALL names the version"
check test ! -e "$R/cgi-bin/.htconsent" "no settings file in the archive (an upload keeps the customer's)"
check test -z "$(find "$R" -name '*.db*' -o -name '.consent-setup-token')" "no database and no token file in the archive"
# The release's programs find data/ from their folder without a setting.
(cd "$R" && ./consentctl --db data/consent.db init) > "$T/init.out" 2>&1
check test -s "$R/data/consent.db" "consentctl of the release makes data/consent.db"
"$R/consentctl" --db "$R/data/consent.db" site add s1 --name "Site s1" --domain example.com > /dev/null 2>&1
(cd "$R/cgi-bin" && env -u CONSENT_DB REQUEST_METHOD=GET QUERY_STRING='site_key=s1' HTTP_ORIGIN=https://example.com ./config) > "$T/cgi.out" 2>&1
check grep -q '^Status: 200' "$T/cgi.out" "cgi-bin/config, no CONSENT_DB, run in its folder: the site of ../data/consent.db ($(head -n 1 "$T/cgi.out" | tr -d '\r'))"

# Reproducible: the same build packed again under another umask and time
# zone gives the same bytes; another
# SOURCE_DATE_EPOCH other bytes.
epoch=$(git -C "$TOP" log -1 --format=%ct 2>/dev/null || stat -c %Y "$TOP/VERSION")
(umask 077; TZ=Asia/Tokyo SOURCE_DATE_EPOCH=$epoch sh "$TOP/tools/dist.sh" "$(cat "$TOP/VERSION")" "$TOP/build/dist" "$T/a") > /dev/null
(umask 002; TZ=UTC SOURCE_DATE_EPOCH=$epoch sh "$TOP/tools/dist.sh" "$(cat "$TOP/VERSION")" "$TOP/build/dist" "$T/b") > /dev/null
a=$T/a/$(basename "$DIST_TGZ") b=$T/b/$(basename "$DIST_TGZ")
check cmp -s "$a" "$b" "packed twice (umask 077 in Tokyo, 002 in UTC): the same bytes ($(sha256sum < "$a" | cut -c1-16))"
check test "$(gzip -lv "$a" | awk 'NR == 2 { print $1 }')" != "" "gzip -l reads it"
check test "$(od -An -tx1 -j4 -N4 "$a" | tr -d ' ')" = 00000000 "gzip header: no mtime (gzip -n)"
(SOURCE_DATE_EPOCH=$((epoch + 86400)) sh "$TOP/tools/dist.sh" "$(cat "$TOP/VERSION")" "$TOP/build/dist" "$T/c") > /dev/null
check test "$(TZ=UTC tar -tvzf "$T/c/$(basename "$DIST_TGZ")" | awk 'NR == 1 { print $4 }')" = "$(TZ=UTC date -u -d "@$((epoch + 86400))" +%Y-%m-%d)" \
    "SOURCE_DATE_EPOCH a day later: every mtime a day later"
if cmp -s "$a" "$T/c/$(basename "$DIST_TGZ")"; then
	notok "another SOURCE_DATE_EPOCH gives other bytes"
else
	ok "another SOURCE_DATE_EPOCH gives other bytes"
fi
