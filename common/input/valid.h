/* valid.h: declared inputs: each endpoint lists its fields once, one walker checks them. */
#ifndef CONSENT_VALID_H
#define CONSENT_VALID_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

enum vtype {
	V_STRING,     /* UTF-8 text, length in characters */
	V_STRING_NULL,/* a string or JSON null */
	V_BOOL,
	V_INTEGER,    /* a JSON number with no fraction */
	V_NUMBER,     /* any finite JSON number */
	V_OBJECT,     /* entries counted against max */
	V_ARRAY       /* entries counted against max */
};

struct vfield {
	const char *name;
	enum vtype type;
	int required;
	size_t min, max;            /* strings: characters; objects, arrays: entries */
	double lo, hi;              /* numbers: inclusive range */
	const char *const *oneof;   /* strings: NULL-terminated allowed values */
};

/*
 * Check obj against the n declared fields.  A missing required field, a
 * wrong JSON type (never coerced), a length or range outside the bounds,
 * invalid UTF-8, a control character (other than tab, CR, LF) or a value
 * not in oneof is refused: -1, with a message naming the field and the rule
 * written to err (e.g. "anon_id must be at most 100 characters"); prefix
 * ("scripts[3].") goes before the field name.  An optional field sent as
 * null counts as absent.  Fields not declared are ignored, but an object
 * with two members of the same name is refused.  Returns 0 when all pass.
 */
int valid_object(const cJSON *obj, const struct vfield *f, size_t n,
                 const char *prefix, char *err, size_t errsz);

/*
 * The number of characters (code points) of a UTF-8 string, or -1 if it is
 * not valid UTF-8 (overlong forms, surrogates, beyond U+10FFFF, truncated).
 */
long valid_utf8_chars(const char *s);

/* Flags of valid_text_chars(). */
#define VALID_TEXT_SPACE 1u   /* tab, CR and LF are text (request fields, config texts) */
#define VALID_TEXT_ANY   2u   /* no control check at all: valid_utf8_chars() */
/* Its refusals, both negative. */
#define VALID_TEXT_UTF8    (-1L)  /* not well-formed UTF-8 */
#define VALID_TEXT_CONTROL (-2L)  /* well-formed, but holds a control character */

/*
 * The one rule for text that people type or clients send: well-formed
 * UTF-8 without control characters, C0 (U+0000 to U+001F), DEL and C1
 * (U+0080 to U+009F) alike; VALID_TEXT_SPACE lets tab, CR and LF through.
 * Returns the length in code points, or VALID_TEXT_UTF8 or
 * VALID_TEXT_CONTROL.  Request fields, config documents and consentctl's
 * names all use it.
 */
long valid_text_chars(const char *s, unsigned flags);

/*
 * Parse a request body as one JSON object.  Refuses NUL bytes, escaped
 * \u0000 (it would silently cut a string short), and anything after the
 * value but white space.  Returns the object (caller owns) or NULL.
 */
cJSON *valid_parse_body(const char *body, size_t len);

/* Whether key is a site key: 1 to SITE_KEY_MAX characters of A-Za-z0-9_-
 * (CONTRACT 3).  The endpoints and consentctl alike. */
int valid_site_key(const char *key);

/* What an operator types (consentctl, CONTRACT 3).  Each returns 1 when
 * the text is well-formed (and writes what it means), else 0. */

/* A site name: 1 to SITE_NAME_MAX characters of UTF-8 text without control
 * characters (valid_text_chars(), tab and line ends included). */
int valid_site_name(const char *s);
/* A tier: "free" (*free_tier 1) or "paid" (0). */
int valid_tier(const char *s, int *free_tier);
/* A MAU cap: a decimal integer 0..MAU_CAP_MAX, or "none" (*cap -1). */
int valid_mau_cap(const char *s, int64_t *cap);
/* A retention period: a decimal integer of days 1..RETENTION_DAYS_MAX, or
 * "none" (*days -1). */
int valid_retention_days(const char *s, int64_t *days);
/* A visitor's anonymous id as an operator types it: 1 to ANON_ID_MAX
 * characters of text without control characters. */
int valid_anon_id(const char *s);
/* The MAU cap in force for a free site (CONTRACT 2): its own (own >= 0),
 * else env, the value of CONSENT_MAU_CAP (NULL or "": unset), else
 * MAU_CAP_DEFAULT.  *malformed is 1 when env is set but not a non-negative
 * integer: the default is in force then, and the caller says so. */
int64_t valid_cap_in_force(int64_t own, const char *env, int *malformed);
/* A time: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.mmm]Z (UTC), a real date,
 * written in the stored form "YYYY-MM-DDTHH:MM:SS.mmmZ" so it compares
 * as text. */
int valid_utc_time(const char *s, char out[32]);

/* The member of obj named name, or NULL; null values count as absent. */
const cJSON *valid_get(const cJSON *obj, const char *name);

#endif
