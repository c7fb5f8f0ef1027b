/* hello.c: the floor of the benchmark, the cheapest CGI program there is.
 *
 * Linked with -static, it does what every endpoint must do and nothing
 * else: one fixed JSON answer with the headers of CONTRACT 7, written in one
 * write(2).  Whatever an endpoint costs above this is the product's own.
 * Built with -DBENCH_SANDBOX it first calls sandbox_enter(), as every
 * endpoint does, so the benchmark can price that call alone.
 */
#include <string.h>
#include <unistd.h>

#ifdef BENCH_SANDBOX
#include "base/sandbox.h"
#endif

static const char answer[] =
    "Status: 200 OK\r\n"
    "Content-Type: application/json; charset=utf-8\r\n"
    "Cache-Control: private, no-store\r\n"
    "Access-Control-Allow-Origin: *\r\n"
    "Vary: Origin\r\n"
    "Content-Length: 16\r\n"
    "\r\n"
    "{\"success\":true}";

int
main(void)
{
#ifdef BENCH_SANDBOX
	sandbox_enter();
#endif
	return write(STDOUT_FILENO, answer, sizeof(answer) - 1) == (ssize_t)(sizeof(answer) - 1) ? 0 : 1;
}
