/* ua.h: browser, OS and device type from a User-Agent header (CONTRACT 7). */
#ifndef CONSENT_UA_H
#define CONSENT_UA_H

struct ua_info {
	const char *browser; /* Chrome Firefox Safari Edge Opera "Samsung Internet" IE Other; NULL if no UA */
	const char *os;      /* Windows macOS iOS iPadOS Android Linux ChromeOS Other; NULL if no UA */
	const char *device;  /* desktop mobile tablet; never NULL */
};

/*
 * Classify a User-Agent string.  ua may be NULL or empty: browser and os are
 * then NULL and device is "desktop".  The strings written are static; the
 * function keeps no state and never reads past the terminating NUL.
 */
void ua_parse(const char *ua, struct ua_info *out);

#endif
