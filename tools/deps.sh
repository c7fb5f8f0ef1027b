#!/bin/sh
# deps.sh: install every Debian package the project builds, tests, serves and
# benchmarks with (run as root; apt-get update first).  The single list of
# dependencies: .ci/run and the README both call this (python3 runs the
# third party's verifier, tools/verify-export.py, in the tests; mandoc
# checks the man pages, t0065).  Then the npm
# packages of the browser tests (package-lock.json) with `npm ci`, and the
# static archives of tools/static-libs.sh (cJSON, a lean SQLite and a lean
# libpq from Debian's source packages; tcl, patch and xz-utils build them),
# with which a plain `make`, and `make STORE=postgres`, link the endpoints
# fully static.  libfcgi and mod_fcgid:
# the FastCGI mode, its tests and its Apache config; spawn-fcgi and
# multiwatch: the process pools of the mod_proxy_fcgi and nginx configs;
# nginx: its config's test (t0825).  apache2-suexec-pristine: the
# shared-hosting test of the release archive (t0835: suEXEC as such hosts
# run it; installing it enables the wrapper for the system's Apache's
# userdirs, which the project's tests start privately).  postgresql,
# libpq-dev and pgbouncer: the PostgreSQL store, and its tests' own cluster
# behind the shipped pgbouncer config (tests/pg.sh).  libargon2-dev and
# python3-zxcvbn: the dashboard's password hashes and the common passwords
# it refuses (tools/gen-passwords.sh builds the list from the package's);
# qrencode: `make serve` may show a dashboard owner's otpauth URI as a QR
# code in the terminal.  chromium, firefox-esr and webkit2gtk-driver
# (WebKitWebDriver and WebKitGTK's MiniBrowser) with xvfb (xvfb-run, the
# display MiniBrowser needs) and xauth: the SDK's tests in the three
# engines (t0610, t0615).  wapiti and sqlmap: the scanners of `make scan`
# (tools/scan-admin.sh), outside `make check`.
set -eu
PACKAGES="
  make gcc libc6-dev clang libclang-rt-dev llvm
  libsqlite3-dev libcjson-dev libssl-dev libmaxminddb-dev
  libargon2-dev python3-zxcvbn
  libfcgi-dev libfcgi-bin libapache2-mod-fcgid spawn-fcgi multiwatch
  postgresql libpq-dev pgbouncer
  tcl patch xz-utils
  sqlite3 jq curl valgrind strace time qrencode
  python3 mandoc
  libmaxmind-db-writer-perl mmdb-bin
  lighttpd lighttpd-modules-lua lighttpd-mod-openssl
  apache2 libapache2-mod-qos libpcre3 apache2-suexec-pristine
  nginx
  wrk hyperfine
  wapiti sqlmap
  chromium esbuild
  firefox-esr webkit2gtk-driver xvfb xauth
"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: run as root (sudo sh tools/deps.sh)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
# Node.js only when absent: a machine with another nodejs (NodeSource's
# bundles its own npm) cannot take Debian's npm package beside it.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
# Debian starts the packaged servers on install; the project runs its own
# instances (on other ports; PostgreSQL and pgbouncer only on Unix sockets
# in a folder of their own), so stop the system ones if they were started.
for s in apache2 lighttpd nginx postgresql pgbouncer; do
	if command -v service >/dev/null 2>&1; then service "$s" stop >/dev/null 2>&1 || true; fi
done
# playwright-core drives the system Chromium (/usr/bin/chromium) and
# puppeteer-core the system Firefox ESR: neither downloads a browser of its
# own.
top=$(cd "$(dirname "$0")/.." && pwd)
(cd "$top" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >/dev/null)
# After the packages, so that the archives match the -dev versions just
# installed (static-libs.sh rebuilds one whose version changed).  Without
# them make still builds, and says in one line that it is not fully static.
sh "$top/tools/static-libs.sh" ||
	echo "deps.sh: not every static archive was made (see above): make says which programs link shared" >&2
# Run through sudo: what it made in the checkout belongs to the user who
# asked, whose make writes beside it.
if [ -n "${SUDO_UID:-}" ] && [ -n "${SUDO_GID:-}" ]; then
	for d in "$top/build" "$top/build/static" "$top/node_modules"; do
		[ -e "$d" ] && chown -R "$SUDO_UID:$SUDO_GID" "$d"
	done
fi
echo "deps.sh: packages installed"
