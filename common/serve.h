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
 * are blocked while handle() runs, so no transaction is cut short).
 * handle() answers everything and keeps nothing of its request: what it
 * leaves behind must be only what store_acquire() keeps.  prog names the
 * endpoint on stderr (log_init).
 */
int serve_requests(const char *prog, void (*handle)(void));

#endif
