/* io.h: the current request's streams: its variables, its body, its answer. */
#ifndef CONSENT_IO_H
#define CONSENT_IO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Every part of common/ that reads a CGI variable or a CONSENT_* setting,
 * reads the request body or writes the answer does it here, so that one
 * program serves a request from the CGI environment and stdin/stdout, or
 * from a FastCGI request (serve.c) whose params and streams the loop
 * attaches for the time of the request.  This file knows no FastCGI
 * library: the loop hands it plain functions (struct io_source).
 */
struct io_source {
	const char *(*param)(void *arg, const char *name);  /* NULL: not sent */
	ssize_t (*read)(void *arg, char *buf, size_t n);   /* 0: end, -1: error */
	int (*write)(void *arg, const char *buf, size_t n); /* 0, or -1 */
	void *arg;
};

/*
 * Serve the requests that follow from src (NULL: the CGI process's own
 * environment, stdin and stdout).  src must stay valid until the next
 * call.  The loop attaches a request's source after accepting it and
 * detaches it (NULL) before finishing it.
 */
void io_attach(const struct io_source *src);

/* Whether this process serves many requests (a FastCGI source was ever
 * attached): what is kept from one request to the next is then worth it. */
int io_persistent(void);

/*
 * The value of a CGI variable or setting: in CGI mode the environment; in
 * FastCGI mode the request's own params, then, for the CONSENT_* settings
 * only, the process environment (what the process manager was told to
 * set); for a CONSENT_* setting still missing (or empty), the settings
 * file's value (settings_file.h); else NULL.  Valid until the request
 * ends: never keep it past that.
 */
const char *io_env(const char *name);

/* Up to n bytes of the request body: the count (0 at its end), or -1 with
 * errno set.  Retries after EINTR. */
ssize_t io_read(char *buf, size_t n);

/* All n bytes to the answer: 0, or -1 (errno set in CGI mode). */
int io_write(const char *buf, size_t n);

#endif
