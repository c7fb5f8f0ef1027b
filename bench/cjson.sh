#!/bin/sh
# cjson.sh DIR: make DIR/libcjson.a from Debian's own cJSON source package
# and print its path, so that `make STATIC=1 CJSON_A=...` can link the
# endpoints fully statically.  Debian ships SQLite, libcrypto and
# libmaxminddb as static archives but cJSON only as a shared library, and a
# single shared library keeps the dynamic loader and a shared glibc in every
# process (docs/performance.md measures what that costs).
#
# The source is the package Debian built libcjson-dev from (same version,
# same patches), fetched with apt-get source through a private apt state
# under DIR/apt whose deb-src entries are derived from the system's own apt
# sources (each "deb" entry turned into "deb-src"), so no mirror is named
# here and the system's apt setup is not touched.
# Once made, the archive is reused while the installed libcjson-dev version
# stays the same.  Exits non-zero, printing nothing, when any step fails.
set -eu
dir=$1
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
version=$(dpkg-query -W -f '${Version}' libcjson-dev 2>/dev/null) || {
	echo "cjson.sh: libcjson-dev is not installed" >&2
	exit 1
}
if [ -f "$dir/libcjson.a" ] && [ "$(cat "$dir/version" 2>/dev/null)" = "$version" ]; then
	echo "$dir/libcjson.a"
	exit 0
fi

rm -rf "$dir/apt" "$dir/src" "$dir/libcjson.a" "$dir/version"
mkdir -p "$dir/apt/lists/partial" "$dir/src"
# The system's sources, as apt itself locates them.
sl=/etc/apt/sources.list sp=/etc/apt/sources.list.d/
eval "$(apt-config shell sl Dir::Etc::sourcelist/f sp Dir::Etc::sourceparts/d)"
mkdir -p "$dir/apt/sources.list.d"
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
	echo "cjson.sh: no deb entry in the system's apt sources to derive deb-src from" >&2
	exit 1
fi
apt_opts="-o Dir::Etc::SourceList=$dir/apt/sources.list -o Dir::Etc::SourceParts=$dir/apt/sources.list.d
 -o Dir::State::Lists=$dir/apt/lists -o APT::Sandbox::User=root"
# A source without deb-src (a third-party repository) fails its part of the
# update; what the others fetched is still enough for apt-get source.
# shellcheck disable=SC2086
apt-get -qq $apt_opts update >&2 || echo "cjson.sh: apt-get update reported errors; trying anyway" >&2
# shellcheck disable=SC2086
(cd "$dir/src" && apt-get -qq $apt_opts source --download-only "cjson=$version") >&2

# Unpack by hand (dpkg-source may be absent): upstream tarball, then the
# Debian patches in series order.
cd "$dir/src"
tar xzf cjson_*.orig.tar.gz
up=$(find . -maxdepth 1 -type d -name 'cJSON-*' | head -n 1)
tar xJf cjson_*.debian.tar.xz -C "$up"
if [ -f "$up/debian/patches/series" ]; then
	for p in $(grep -v '^#' "$up/debian/patches/series"); do
		patch -s -d "$up" -p1 < "$up/debian/patches/$p"
	done
fi
${CC:-cc} -O2 -c "$up/cJSON.c" -o cJSON.o
ar rcs "$dir/libcjson.a" cJSON.o
echo "$version" > "$dir/version"
echo "$dir/libcjson.a"
