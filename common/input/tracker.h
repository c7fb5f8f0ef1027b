/* tracker.h: the built-in database of known tracker and third-party domains. */
#ifndef CONSENT_TRACKER_H
#define CONSENT_TRACKER_H

#include <stddef.h>

/*
 * The category id (analytics, marketing, functional, necessary) of a domain,
 * matched on the domain itself or on any parent domain
 * (www.google-analytics.com -> google-analytics.com), never on a look-alike
 * (notgoogle-analytics.com).  The domain must already be lower case.
 * Returns a static string, or NULL when the domain is unknown.
 */
const char *tracker_category(const char *domain);

/*
 * tracker_category(), and when it finds one and entry is not NULL, *entry
 * receives the database's domain that matched (static): the domain itself
 * or the parent whose entry covers it (www.google-analytics.com ->
 * "google-analytics.com").  *entry is left alone when nothing matches.
 */
const char *tracker_match(const char *domain, const char **entry);

/* Number of domains in the built-in database. */
size_t tracker_count(void);

#endif
