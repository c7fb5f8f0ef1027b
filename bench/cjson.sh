#!/bin/sh
# cjson.sh [DIR]: kept for bench/run.sh, which links the benchmark build with
# the libcjson.a this prints (make CJSON_A=...).  The archives are now made
# by tools/static-libs.sh, cJSON and a lean SQLite from Debian's source
# packages, in build/static where a plain `make` finds them; with both
# there, `make STATIC=1 CJSON_A=...` links that lean SQLite too.  DIR, where
# this script used to build, is no longer used.  Prints the path of
# libcjson.a, or exits non-zero, printing nothing, when the archives cannot
# be made (the cause on stderr).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/static-libs.sh" "$top/build/static"
echo "$top/build/static/libcjson.a"
