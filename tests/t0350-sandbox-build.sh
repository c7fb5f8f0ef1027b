#!/bin/bash
# t0350-sandbox-build.sh: the seccomp filter builds on older kernel headers,
# and where no filter applies the process says so on stderr, once.
. "$(dirname "$0")/setup.sh"

CC=${CC:-cc}
if ! command -v "$CC" >/dev/null 2>&1; then
	skip "no C compiler: sandbox build checks"
	exit 0
fi
flags="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -Werror -iquote $TOP/common"
cat > "$T/main.c" <<'C'
#include "base/sandbox.h"
int main(void) { sandbox_enter(); sandbox_enter(); return 0; }
C

# Kernel headers from before Linux 5.3 have no clone3, before 5.1 no io_uring.
mkdir -p "$T/old/sys"
cat > "$T/old/sys/syscall.h" <<'C'
#include_next <sys/syscall.h>
#undef __NR_clone3
#undef __NR_io_uring_setup
C
# shellcheck disable=SC2086
check $CC $flags -I "$T/old" -o "$T/old-headers" "$TOP/common/base/sandbox.c" "$TOP/common/base/log.c" "$T/main.c" \
    "sandbox.c compiles without __NR_clone3 and __NR_io_uring_setup"
if [ -x "$T/old-headers" ]; then
	"$T/old-headers" 2>"$T/old.err"
	check test ! -s "$T/old.err" "with a filter: nothing on stderr"
fi

# An architecture the filter does not know.
# shellcheck disable=SC2086
if $CC $flags -DSANDBOX_ARCH=0 -o "$T/noarch" "$TOP/common/base/sandbox.c" "$TOP/common/base/log.c" "$T/main.c" 2>"$T/cc.err"; then
	ok "sandbox.c compiles for an architecture without a filter"
	"$T/noarch" 2>"$T/noarch.err"
	check test "$(grep -c 'no seccomp filter' "$T/noarch.err")" = 1 "no filter: one line on stderr, for two calls"
else
	notok "sandbox.c compiles for an architecture without a filter"
	head -n 3 "$T/cc.err"
fi
