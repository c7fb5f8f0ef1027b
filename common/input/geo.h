/* geo.h: the visitor's country and subdivision (CONTRACT 6). */
#ifndef CONSENT_GEO_H
#define CONSENT_GEO_H

struct geo {
	char country[3];      /* ISO 3166-1 alpha-2, upper case; "" if unknown */
	char subdivision[8];  /* ISO 3166-2 subdivision code without the country
	                         prefix (e.g. "CA"), upper case; "" if unknown */
};

/*
 * Detect the visitor's location from the CGI environment, in CONTRACT 6
 * order: the trusted header (CONSENT_COUNTRY_HEADER, or the default list),
 * a server-set variable (GEOIP_COUNTRY_CODE, MM_COUNTRY_CODE), then a lookup
 * of REMOTE_ADDR in the MaxMind database named by CONSENT_GEOIP_DB (opened
 * only when the earlier sources gave nothing).  Only two ASCII letters count;
 * XX and T1 mean unknown.  Never fails: an unreadable database or a bad
 * address leaves the fields empty and writes one line to stderr (the
 * database case only).
 */
void geo_detect(struct geo *out);

/*
 * A location given as text (the dashboard's preview: "what a visitor from
 * there sees"), by the rules geo_detect() applies to what it reads: the
 * country two ASCII letters (XX means unknown), the subdivision (NULL:
 * none) 1-3 letters or digits, or the full "US-CA".  Returns 1 with g
 * filled, or 0 (g empty) when country is no country.
 */
int geo_set(struct geo *g, const char *country, const char *subdivision);

/* Close the database a FastCGI process kept open for geo_detect() (the
 * process ends).  Nothing of a request is kept there: only the database. */
void geo_forget(void);

#endif
