/* lang.c: content language negotiation (CONTRACT 5.3, RFC 9110 12.5.4, RFC 4647). */
#include <stddef.h>
#include <string.h>

#include "lang.h"
#include "limits.h"

/* One Accept-Language entry: a tag inside the header, its weight x 1000. */
struct range {
	const char *tag;
	size_t len;
	int q;
};

static int
ascii_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int
is_alpha(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_ows(int c)
{
	return c == ' ' || c == '\t';
}

/*
 * Length of the basic language range at s (RFC 4647 2.1: 1*8ALPHA
 * *("-" 1*8alphanum), at most LANG_TAG_MAX characters), or 0 when s does
 * not start with one.  Reads no further than the first byte after the tag.
 */
static size_t
tag_len(const char *s)
{
	size_t i = 0, sub = 0;
	int first = 1;

	for (;; i++) {
		int c = (unsigned char)s[i];

		if (is_alpha(c) || (!first && is_digit(c))) {
			if (++sub > 8 || i >= LANG_TAG_MAX)
				return 0;
		} else if (c == '-') {
			if (sub == 0)
				return 0;
			sub = 0;
			first = 0;
		} else
			break;
	}
	return sub == 0 ? 0 : i;
}

/* Length of the primary subtag of s[0..len). */
static size_t
primary_len(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && s[i] != '-')
		i++;
	return i;
}

/* Whether the NUL-terminated key equals s[0..len) without regard to ASCII case. */
static int
key_equal(const char *key, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (key[i] == '\0' || ascii_lower((unsigned char)key[i]) !=
		    ascii_lower((unsigned char)s[i]))
			return 0;
	return key[len] == '\0';
}

/* Whether key's primary subtag equals s[0..len) without regard to case. */
static int
key_primary_equal(const char *key, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (key[i] == '\0' || ascii_lower((unsigned char)key[i]) !=
		    ascii_lower((unsigned char)s[i]))
			return 0;
	return key[len] == '\0' || key[len] == '-';
}

/*
 * Index of the available key matching the candidate s[0..len), or -1.  In
 * order of preference: the whole tag (de-AT = de-AT), the candidate's
 * primary subtag (de-AT -> de), then any key with the same primary subtag
 * (de -> de-DE, de-AT -> de-CH; the first such key in avail order).  The
 * last step goes beyond CONTRACT 5.3: a site keyed "de-DE" serves its German
 * to a visitor who asks for "de" rather than falling back to English.
 */
static int
match(const char *const *avail, size_t n, const char *s, size_t len)
{
	size_t plen = primary_len(s, len), i;

	for (i = 0; i < n; i++)
		if (avail[i] != NULL && key_equal(avail[i], s, len))
			return (int)i;
	if (plen < len)
		for (i = 0; i < n; i++)
			if (avail[i] != NULL && key_equal(avail[i], s, plen))
				return (int)i;
	for (i = 0; i < n; i++)
		if (avail[i] != NULL && key_primary_equal(avail[i], s, plen))
			return (int)i;
	return -1;
}

/* Match a NUL-terminated candidate that must be a whole, valid tag. */
static int
match_tag(const char *const *avail, size_t n, const char *s)
{
	size_t len;

	if (s == NULL || (len = tag_len(s)) == 0 || s[len] != '\0')
		return -1;
	return match(avail, n, s, len);
}

/*
 * Parse a qvalue (RFC 9110 12.4.2: "0" ["." 0*3DIGIT] / "1" ["." 0*3"0"])
 * at *sp into thousandths; advances *sp.  Returns -1 if malformed.
 */
static int
parse_q(const char **sp)
{
	const char *s = *sp;
	int q, scale = 100, digits = 0;

	if (*s != '0' && *s != '1')
		return -1;
	q = (*s++ - '0') * 1000;
	if (*s == '.')
		for (s++; is_digit((unsigned char)*s); s++, scale /= 10) {
			if (++digits > 3)
				return -1;
			q += (*s - '0') * scale;
		}
	if (q > 1000)
		return -1;
	*sp = s;
	return q;
}

/*
 * Parse one list element of Accept-Language starting at s (after OWS),
 * ending at the next ',' or NUL, into r.  Returns the position of that ','
 * or NUL; r->len is 0 when the element is to be skipped: empty, "*",
 * malformed, or q=0.  OWS is allowed around ";" and "=" and at both ends.
 */
static const char *
parse_range(const char *s, struct range *r)
{
	const char *p = s;
	size_t len;
	int ok = 1;

	r->len = 0;
	r->q = 1000;
	len = tag_len(p);
	if (len == 0)
		ok = 0;
	p += len;
	while (is_ows((unsigned char)*p))
		p++;
	if (ok && *p == ';') {
		for (p++; is_ows((unsigned char)*p); p++)
			;
		if (*p != 'q' && *p != 'Q')
			ok = 0;
		else {
			for (p++; is_ows((unsigned char)*p); p++)
				;
			if (*p != '=')
				ok = 0;
			else {
				for (p++; is_ows((unsigned char)*p); p++)
					;
				if ((r->q = parse_q(&p)) < 0)
					ok = 0;
				while (is_ows((unsigned char)*p))
					p++;
			}
		}
	}
	if (*p != ',' && *p != '\0')
		ok = 0;
	while (*p != ',' && *p != '\0')
		p++;
	if (ok && r->q > 0) {
		r->tag = s;
		r->len = len;
	}
	return p;
}

/*
 * Collect up to ACCEPT_LANG_MAX_TAGS weighted ranges of accept into r,
 * sorted by descending q, equal q in header order.  Every non-empty list
 * element counts toward the limit, kept or not, so the work is bounded.  A
 * header longer than HEADER_MAX is ignored (limits.h).  Returns the count.
 */
static size_t
parse_accept(const char *accept, struct range r[ACCEPT_LANG_MAX_TAGS])
{
	const char *p = accept;
	size_t n = 0, seen = 0, i, j;

	if (accept == NULL || strnlen(accept, HEADER_MAX + 1) > HEADER_MAX)
		return 0;
	while (*p != '\0' && seen < ACCEPT_LANG_MAX_TAGS) {
		while (is_ows((unsigned char)*p) || *p == ',')
			p++;
		if (*p == '\0')
			break;
		seen++;
		p = parse_range(p, &r[n]);
		if (r[n].len == 0)
			continue;
		/* Insertion sort: stable, and n is at most 16. */
		for (i = n; i > 0 && r[i - 1].q < r[n].q; i--)
			;
		if (i < n) {
			struct range t = r[n];

			for (j = n; j > i; j--)
				r[j] = r[j - 1];
			r[i] = t;
		}
		n++;
	}
	return n;
}

/*
 * CONTRACT 5.3 language choice.  Each candidate is tried against every
 * available key before the next candidate (see match() for the three
 * levels), so the visitor's first choice in any regional form beats an exact
 * match on a later choice.  Candidates that are not valid tags (lang="*",
 * "de_DE", longer than LANG_TAG_MAX) are skipped.  q=0 only removes that
 * entry; it does not veto the same language as a later default.  Uses a
 * fixed array on the stack and reads every string only up to its NUL.
 */
int
lang_negotiate(const char *const *avail, size_t n, const char *lang,
               const char *accept, const char *region_default,
               const char *content_default)
{
	struct range r[ACCEPT_LANG_MAX_TAGS];
	const char *defaults[3];
	size_t nr, i;
	int m;

	if (avail == NULL || n == 0)
		return -1;
	if (n > (size_t)(~0u >> 1))
		n = ~0u >> 1; /* indexes are returned as int */
	if ((m = match_tag(avail, n, lang)) >= 0)
		return m;
	nr = parse_accept(accept, r);
	for (i = 0; i < nr; i++)
		if ((m = match(avail, n, r[i].tag, r[i].len)) >= 0)
			return m;
	defaults[0] = region_default;
	defaults[1] = content_default;
	defaults[2] = "en";
	for (i = 0; i < 3; i++)
		if ((m = match_tag(avail, n, defaults[i])) >= 0)
			return m;
	return -1;
}
