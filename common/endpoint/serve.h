/* serve.h: the endpoints' one loop: a CGI request, or FastCGI requests until told to stop. */
#ifndef CONSENT_SERVE_H
#define CONSENT_SERVE_H

/*
 * Run handle() for the process's requests and return main()'s exit status
 * (0).  Started by a web server as CGI (fd 0 is not a listening socket):
 * sandbox_enter(), then handle() once, with the environment, stdin and
 * stdout.  Started by a FastCGI process manager (fd 0 is the listening
 * socket): the FastCGI library set up, sandbox_enter(), then one request
 * after the other, each attached to io.h for handle(), until
 * CONSENT_FCGI_MAX_REQUESTS have been served (limits.h) or SIGTERM or
 * SIGUSR1 arrives; a signal during a request lets it finish first (both
 * are blocked but in the wait for a connection, so no transaction is cut
 * short).
 * handle() answers everything and keeps nothing of its request: what it
 * leaves behind must be only what store_acquire() keeps.  prog names the
 * endpoint on stderr (log_init).
 *
 * fail, for the endpoints that write (NULL for a reader), turns on group
 * commit in FastCGI mode: after a request whose write opened a group
 * (store_group_begin), the requests already waiting on the socket are
 * accepted and served too, at most FCGI_GROUP_MAX, their writes in the
 * same transaction; it is committed once, and only then are their answers,
 * held in memory until that moment, sent.  A request whose write did not
 * commit gets fail()'s answer instead (a 500, request_write_failed()).
 * A batch never waits for a request that has not arrived.  Every
 * connection carries one request: FCGI_KEEP_CONN is not honoured.
 */
int serve_requests(const char *prog, void (*handle)(void), void (*fail)(void));

#endif
