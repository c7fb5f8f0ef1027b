/* lang.c: content language negotiation (CONTRACT 5.3, RFC 9110 12.5.4, RFC 4647). */
#include <stddef.h>
#include <string.h>

#include "input/lang.h"
#include "base/limits.h"
#include "base/nitems.h"

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
 * Regional variants that the primary subtag alone gets wrong (docs/sdk.md,
 * "Languages"): a candidate under one of the tags of `from` (equal to it,
 * or starting with it and "-", without regard to case: zh-Hant-HK is under
 * zh-Hant) tries the keys of `to` in order.  Only the first rule a
 * candidate is under applies, so the script subtag of Chinese decides
 * before its region, and a bare "zh" (or zh-CN, zh-SG, zh-MY) is
 * Simplified.  Spanish of the Americas (UN M.49 419 and each country, the
 * US included) prefers Latin American Spanish to Spain's; "no" is
 * Norwegian Bokmal in practice and "nb" takes "no" alike; the withdrawn
 * ISO 639 codes that old Java and Android still send find the current ones.
 */
static const struct variant {
	const char *from;
	const char *to[3];
} variants[] = {
	{ "zh-Hant zh-TW", { "zh-TW", "zh-Hant", "zh-HK" } },
	{ "zh-HK zh-MO", { "zh-HK", "zh-TW", "zh-Hant" } },
	{ "zh", { "zh-CN", "zh-Hans", "zh-SG" } },
	{ "es-419 es-AR es-BO es-CL es-CO es-CR es-CU es-DO es-EC es-GT es-HN es-MX "
	  "es-NI es-PA es-PE es-PR es-PY es-SV es-US es-UY es-VE", { "es-419", "es-MX" } },
	{ "no", { "nb" } },
	{ "nb", { "no" } },
	{ "iw", { "he" } }, { "he", { "iw" } },
	{ "in", { "id" } }, { "id", { "in" } },
	{ "ji", { "yi" } }, { "yi", { "ji" } },
	{ "mo", { "ro" } },
};

/* Whether s[0..len) is the tag t[0..tlen) or starts with it and "-",
 * without regard to ASCII case. */
static int
under(const char *s, size_t len, const char *t, size_t tlen)
{
	size_t i;

	if (tlen > len || (tlen < len && s[tlen] != '-'))
		return 0;
	for (i = 0; i < tlen; i++)
		if (ascii_lower((unsigned char)s[i]) != ascii_lower((unsigned char)t[i]))
			return 0;
	return 1;
}

/* The first rule of variants[] the candidate s[0..len) is under, or NULL. */
static const struct variant *
variant_of(const char *s, size_t len)
{
	size_t r;

	for (r = 0; r < nitems(variants); r++) {
		const char *t = variants[r].from;

		while (*t != '\0') {
			size_t tlen = strcspn(t, " ");

			if (under(s, len, t, tlen))
				return &variants[r];
			t += tlen;
			t += strspn(t, " ");
		}
	}
	return NULL;
}

/*
 * Index of the available key matching the candidate s[0..len), or -1.  In
 * order of preference: the whole tag (de-AT = de-AT), the keys its
 * regional variant rule names (zh-HK -> zh-TW, es-MX -> es-419, above), the
 * candidate's primary subtag (de-AT -> de, pt-PT -> pt), then any key with
 * the same primary subtag (de -> de-DE, de-AT -> de-CH; the first such key
 * in avail order).  The last two steps go beyond CONTRACT 5.3's primary
 * subtag: a site keyed "de-DE" serves its German to a visitor who asks for
 * "de" rather than falling back to English.  Each step takes the first
 * key in a fixed order among those that qualify, so the match on fewer
 * keys that include it is the same (prepare.c relies on it).
 */
static int
match(const char *const *avail, size_t n, const char *s, size_t len)
{
	size_t plen = primary_len(s, len), i, k;
	const struct variant *var;

	for (i = 0; i < n; i++)
		if (avail[i] != NULL && key_equal(avail[i], s, len))
			return (int)i;
	if ((var = variant_of(s, len)) != NULL)
		for (k = 0; k < nitems(var->to) && var->to[k] != NULL; k++)
			for (i = 0; i < n; i++)
				if (avail[i] != NULL && key_equal(avail[i], var->to[k],
				    strlen(var->to[k])))
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

/*
 * Scripts written right to left (ISO 15924): Arabic, Hebrew, Syriac,
 * Thaana, N'Ko, Adlam, Hanifi Rohingya, Mandaic, Samaritan.
 */
static const char *const rtl_scripts[] = {
	"arab", "hebr", "syrc", "thaa", "nkoo", "adlm", "rohg", "mand", "samr",
};

/*
 * Languages written right to left when the tag names no script: Arabic,
 * Persian and Dari, Hebrew, Urdu, Pashto, Sindhi, Uyghur, Yiddish, Central
 * Kurdish, Dhivehi, Kashmiri, Western Punjabi, Syriac, Aramaic, Northern
 * Luri, Mazanderani, South Azerbaijani (and the withdrawn iw and ji).
 */
static const char *const rtl_langs[] = {
	"ar", "fa", "prs", "he", "iw", "ur", "ps", "sd", "ug", "yi", "ji", "ckb", "dv",
	"ks", "pnb", "syr", "arc", "lrc", "mzn", "azb",
};

static int
listed(const char *const *list, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && under(s, len, list[i], len))
			return 1;
	return 0;
}

const char *
lang_direction(const char *tag)
{
	size_t len, plen, slen;

	if (tag == NULL || (len = tag_len(tag)) == 0)
		return "ltr";
	plen = primary_len(tag, len);
	/* A script subtag (four letters, right after the language) decides. */
	if (plen + 5 <= len && (plen + 5 == len || tag[plen + 5] == '-')) {
		slen = 4;
		for (size_t i = 0; i < slen; i++)
			if (!is_alpha((unsigned char)tag[plen + 1 + i]))
				slen = 0;
		if (slen == 4)
			return listed(rtl_scripts, nitems(rtl_scripts),
			    tag + plen + 1, 4) ? "rtl" : "ltr";
	}
	return listed(rtl_langs, nitems(rtl_langs), tag, plen)
	    ? "rtl" : "ltr";
}
