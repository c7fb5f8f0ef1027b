/* log.h: one line per problem on stderr, which the web server logs. */
#ifndef CONSENT_LOG_H
#define CONSENT_LOG_H

/* Set the program name that prefixes every line (default "consent"). */
void log_init(const char *prog);

/* "prog: message" on stderr.  Never pass request data that could be a
 * visitor's identifier (anon_id); other request text is escaped. */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
