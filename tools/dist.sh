#!/bin/sh
# dist.sh: the release archive a shared-hosting customer uploads (make dist).
#
#   sh tools/dist.sh VERSION BUILD OUT
#
# BUILD is the release build (make dist's build/dist: the four programs
# fully static, the database ../data/consent.db from cgi-bin/), OUT the
# folder the archive goes to: OUT/consent-VERSION-linux-x86_64.tar.gz,
# one folder consent-VERSION/ holding
#
#   .htaccess          dist/htaccess: the URLs, the headers, what is denied
#   INSTALL            dist/INSTALL, VERSION filled in
#   consent.js         the SDK (build/sdk/)
#   admin/             the dashboard's page (build/admin/) and dist/htaccess-admin
#   cgi-bin/           config consent scripts admin (0755, stripped) and dist/htaccess-cgi-bin
#   data/              apache/htaccess-data only: the first run puts the database here
#   consentctl         the command line, for those with a shell
#
# No settings file (cgi-bin/.htconsent) and no database: uploading a newer
# release over an older one keeps both.  A program that is not fully static
# (an ELF interpreter or a NEEDED library: readelf) stops it, as does a
# missing SDK or page.  The same tree gives the same bytes: names sorted,
# every mtime SOURCE_DATE_EPOCH (default: the last commit's time, else
# VERSION's), owner and group 0 by number, modes 0755 and 0644 whatever the
# umask, gzip without a name or time.
set -eu
[ $# -eq 3 ] || { echo "usage: sh tools/dist.sh VERSION BUILD OUT" >&2; exit 2; }
version=$1 build=$2 out=$3
top=$(cd "$(dirname "$0")/.." && pwd)
name=consent-$version
archive=$out/$name-linux-x86_64.tar.gz

fail() { echo "dist.sh: $*" >&2; exit 1; }

# static FILE: no ELF interpreter and no shared library needed.
static() {
	readelf -h "$1" >/dev/null 2>&1 || fail "$1 is not an ELF program"
	if readelf -lW "$1" | grep -q 'INTERP' || readelf -dW "$1" | grep -q '(NEEDED)'; then
		fail "$1 is not statically linked ($(readelf -dW "$1" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')): make dist needs the archives of tools/static-libs.sh (sh tools/deps.sh)"
	fi
}

for p in cgi-bin/config cgi-bin/consent cgi-bin/scripts cgi-bin/admin bin/consentctl; do
	[ -x "$build/$p" ] || fail "$build/$p is not built"
	static "$build/$p"
done
[ -f "$top/build/sdk/consent.js" ] || fail "build/sdk/consent.js is not built (esbuild: sh tools/deps.sh)"
[ -f "$top/build/admin/index.html" ] || fail "build/admin/ is not built (esbuild and node_modules: npm ci)"

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2>/dev/null || stat -c %Y "$top/VERSION")
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/consent-dist.XXXXXX")
trap 'rm -rf "$stage"' EXIT
tree=$stage/$name
mkdir -p "$tree/admin" "$tree/cgi-bin" "$tree/data"
cp "$top/dist/htaccess" "$tree/.htaccess"
sed "s/VERSION/$version/g" "$top/dist/INSTALL" > "$tree/INSTALL"
cp "$top/build/sdk/consent.js" "$tree/consent.js"
cp "$top"/build/admin/* "$tree/admin/"
cp "$top/dist/htaccess-admin" "$tree/admin/.htaccess"
# The programs without their debugging sections: a third of the upload.
for p in config consent scripts admin; do
	strip -o "$tree/cgi-bin/$p" "$build/cgi-bin/$p"
done
cp "$top/dist/htaccess-cgi-bin" "$tree/cgi-bin/.htaccess"
cp "$top/apache/htaccess-data" "$tree/data/.htaccess"
strip -o "$tree/consentctl" "$build/bin/consentctl"

# Modes as the customer's host wants them, whatever this umask made.
find "$tree" -type d -exec chmod 0755 {} +
find "$tree" -type f -exec chmod 0644 {} +
chmod 0755 "$tree"/cgi-bin/config "$tree"/cgi-bin/consent "$tree"/cgi-bin/scripts \
    "$tree"/cgi-bin/admin "$tree/consentctl"

mkdir -p "$out"
(cd "$stage" && tar --sort=name --format=gnu --mtime="@$SOURCE_DATE_EPOCH" \
    --owner=0 --group=0 --numeric-owner -cf - "$name") | gzip -n -9 > "$archive.tmp"
mv "$archive.tmp" "$archive"
echo "$archive"
