/* origin.h: parsing an Origin header and matching it to registered domains. */
#ifndef CONSENT_ORIGIN_H
#define CONSENT_ORIGIN_H

#include <stddef.h>

#include "base/limits.h"

/*
 * Parse an Origin (RFC 6454): "http://" or "https://", a host, an optional
 * ":port" (1-65535), nothing else.  The host is written lower-cased into
 * host (HOST_MAX + 1 bytes).  IPv6 literals in brackets are accepted and
 * written with their brackets.  "null", empty, or anything malformed
 * (userinfo, path, query, control or non-ASCII bytes, overlong) returns -1;
 * success returns 0.
 */
int origin_host(const char *origin, char host[HOST_MAX + 1]);

/*
 * Whether host (as from origin_host) belongs to the registered domain: equal
 * to it, or ending with "." + domain.  Look-alikes (evilexample.com,
 * example.com.evil.net) do not match.  Returns 1 or 0.
 */
int origin_matches(const char *host, const char *domain);

/*
 * Normalise what an operator types as a domain (CONTRACT 3):
 * "https://WWW.Example.com:443/x" -> "www.example.com".  Lower case, no
 * scheme, userinfo, port, path, query or trailing dot.  Returns 0, or -1 when
 * what is left is not a host name (empty, bad characters, too long).
 */
int origin_normalise_domain(const char *in, char out[HOST_MAX + 1]);

/*
 * A script domain of a scripts report (spec 4.3): host[:port], the port
 * dropped, "www.Google-Analytics.com:443" -> "www.google-analytics.com".
 * Returns 0, or -1 when it is not a host name, a dotted quad or a
 * bracketed IPv6 literal.
 */
int origin_script_host(const char *in, char out[HOST_MAX + 1]);

#endif
