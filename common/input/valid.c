/* valid.c: one walker for every endpoint's declared fields (kcgi's kvalid). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "input/valid.h"

/*
 * Decode the code point at *p and advance past it: 0, or -1 when the bytes
 * are not well-formed UTF-8 (overlong forms, surrogates, beyond U+10FFFF,
 * truncated).  The NUL ends every sequence, so a string is never overrun.
 */
static int
utf8_next(const unsigned char **p, unsigned long *cp)
{
	const unsigned char *s = *p;
	unsigned int c = *s++;
	int more;

	if (c < 0x80) {
		*cp = c;
		*p = s;
		return 0;
	} else if (c >= 0xc2 && c <= 0xdf) {
		more = 1;
		*cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		more = 2;
		*cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		more = 3;
		*cp = c & 0x07;
	} else {
		return -1;
	}
	for (int i = 0; i < more; i++, s++) {
		if ((*s & 0xc0) != 0x80)  /* also stops at the NUL */
			return -1;
		*cp = (*cp << 6) | (*s & 0x3f);
	}
	if ((more == 2 && *cp < 0x800) || (more == 3 && *cp < 0x10000) ||
	    *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return -1;
	*p = s;
	return 0;
}

/* The one rule for control characters: C0, DEL and C1 (U+0080 to U+009F);
 * with VALID_TEXT_SPACE, tab, CR and LF are text. */
static int
is_control(unsigned long cp, unsigned flags)
{
	if ((flags & VALID_TEXT_SPACE) && (cp == '\t' || cp == '\n' || cp == '\r'))
		return 0;
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

long
valid_text_chars(const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned long cp;
	long n = 0;
	int control = 0;

	while (*p != '\0') {
		if (utf8_next(&p, &cp) != 0)
			return VALID_TEXT_UTF8;
		if (!(flags & VALID_TEXT_ANY) && is_control(cp, flags))
			control = 1;
		n++;
	}
	return control ? VALID_TEXT_CONTROL : n;
}

long
valid_utf8_chars(const char *s)
{
	long n = valid_text_chars(s, VALID_TEXT_ANY);

	return n < 0 ? -1 : n;
}

int
valid_site_key(const char *key)
{
	size_t n = 0;

	for (; key[n] != '\0'; n++) {
		char c = key[n];
		if (n >= SITE_KEY_MAX)
			return 0;
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return 0;
	}
	return n > 0;
}

int
valid_site_name(const char *s)
{
	long n = valid_text_chars(s, 0);

	return n >= 1 && n <= SITE_NAME_MAX;
}

int
valid_tier(const char *s, int *free_tier)
{
	if (strcmp(s, "free") != 0 && strcmp(s, "paid") != 0)
		return 0;
	*free_tier = s[0] == 'f';
	return 1;
}

int
valid_mau_cap(const char *s, int64_t *cap)
{
	char *end;
	long long v;

	if (strcmp(s, "none") == 0) {
		*cap = -1;
		return 1;
	}
	errno = 0;
	v = (s[0] >= '0' && s[0] <= '9') ? strtoll(s, &end, 10) : -1;
	if (v < 0 || errno != 0 || *end != '\0' || v > MAU_CAP_MAX)
		return 0;
	*cap = v;
	return 1;
}

int
valid_retention_days(const char *s, int64_t *days)
{
	char *end;
	long long v;

	if (strcmp(s, "none") == 0) {
		*days = -1;
		return 1;
	}
	errno = 0;
	v = (s[0] >= '1' && s[0] <= '9') ? strtoll(s, &end, 10) : -1;
	if (v < 1 || errno != 0 || *end != '\0' || v > RETENTION_DAYS_MAX)
		return 0;
	*days = v;
	return 1;
}

int
valid_anon_id(const char *s)
{
	long n = valid_text_chars(s, 0);

	return n >= 1 && n <= ANON_ID_MAX;
}

int64_t
valid_cap_in_force(int64_t own, const char *env, int *malformed)
{
	char *end;
	long long v;

	*malformed = 0;
	if (own >= 0)
		return own;
	if (env == NULL || *env == '\0')
		return MAU_CAP_DEFAULT;
	errno = 0;
	v = strtoll(env, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0) {
		*malformed = 1;
		return MAU_CAP_DEFAULT;
	}
	return v;
}

/* n decimal digits at s, within lo..hi, into *v: 0 or -1. */
static int
digits(const char *s, int n, int lo, int hi, int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return (*v >= lo && *v <= hi) ? 0 : -1;
}

int
valid_utc_time(const char *s, char out[32])
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int y, mo, d, h = 0, mi = 0, sec = 0, ms = 0, i;
	size_t n = strlen(s);
	const char *p;

	if (n < 10 || digits(s, 4, 0, 9999, &y) || s[4] != '-' ||
	    digits(s + 5, 2, 1, 12, &mo) || s[7] != '-' ||
	    digits(s + 8, 2, 1, mdays[mo - 1], &d) ||
	    (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))))
		return 0;
	if (n > 10) {
		if (n < 20 || s[10] != 'T' || digits(s + 11, 2, 0, 23, &h) ||
		    s[13] != ':' || digits(s + 14, 2, 0, 59, &mi) || s[16] != ':' ||
		    digits(s + 17, 2, 0, 59, &sec))
			return 0;
		p = s + 19;
		if (*p == '.') {
			for (i = 0, p++; i < 3 && *p >= '0' && *p <= '9'; i++, p++)
				ms = ms * 10 + (*p - '0');
			if (i == 0)
				return 0;
			for (; i < 3; i++)
				ms *= 10;
		}
		if (strcmp(p, "Z") != 0)
			return 0;
	}
	snprintf(out, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", y, mo, d, h, mi, sec, ms);
	return 1;
}

const cJSON *
valid_get(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return cJSON_IsNull(v) ? NULL : v;
}

/* A member name that occurs twice in obj, or NULL.  Objects are bounded by
 * the body size and the callers' entry limits, so the square is small. */
static const char *
duplicate_member(const cJSON *obj)
{
	for (const cJSON *a = obj->child; a != NULL; a = a->next)
		for (const cJSON *b = a->next; b != NULL; b = b->next)
			if (a->string && b->string && strcmp(a->string, b->string) == 0)
				return a->string;
	return NULL;
}

static size_t
count_entries(const cJSON *v)
{
	size_t n = 0;

	for (const cJSON *c = v->child; c != NULL; c = c->next)
		n++;
	return n;
}

static void
list_oneof(const char *const *oneof, char *buf, size_t bufsz)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; oneof[i] != NULL; i++) {
		int w = snprintf(buf + o, bufsz - o, "%s%s", i ? ", " : "", oneof[i]);
		if (w < 0 || (size_t)w >= bufsz - o)
			return;
		o += (size_t)w;
	}
}

static int
check_string(const cJSON *v, const struct vfield *f, const char *prefix,
             char *err, size_t errsz)
{
	long chars;

	if (!cJSON_IsString(v) || v->valuestring == NULL) {
		snprintf(err, errsz, "%s%s must be a string", prefix, f->name);
		return -1;
	}
	if ((chars = valid_text_chars(v->valuestring, VALID_TEXT_SPACE)) == VALID_TEXT_UTF8) {
		snprintf(err, errsz, "%s%s must be valid UTF-8", prefix, f->name);
		return -1;
	}
	if (chars == VALID_TEXT_CONTROL) {
		snprintf(err, errsz, "%s%s must not contain control characters", prefix, f->name);
		return -1;
	}
	if (f->max > 0 && (size_t)chars > f->max) {
		snprintf(err, errsz, "%s%s must be at most %zu characters", prefix, f->name, f->max);
		return -1;
	}
	if ((size_t)chars < f->min) {
		snprintf(err, errsz, "%s%s must not be empty", prefix, f->name);
		return -1;
	}
	if (f->oneof != NULL) {
		char list[256];
		for (size_t i = 0; f->oneof[i] != NULL; i++)
			if (strcmp(v->valuestring, f->oneof[i]) == 0)
				return 0;
		list_oneof(f->oneof, list, sizeof(list));
		snprintf(err, errsz, "%s%s must be one of: %s", prefix, f->name, list);
		return -1;
	}
	return 0;
}

static int
check_field(const cJSON *v, const struct vfield *f, const char *prefix,
            char *err, size_t errsz)
{
	switch (f->type) {
	case V_STRING_NULL:
		if (cJSON_IsNull(v))
			return 0;
		/* FALLTHROUGH */
	case V_STRING:
		return check_string(v, f, prefix, err, errsz);
	case V_BOOL:
		if (!cJSON_IsBool(v)) {
			snprintf(err, errsz, "%s%s must be a boolean", prefix, f->name);
			return -1;
		}
		return 0;
	case V_INTEGER:
	case V_NUMBER:
		if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
		    v->valuedouble < f->lo || v->valuedouble > f->hi ||
		    (f->type == V_INTEGER && floor(v->valuedouble) != v->valuedouble)) {
			snprintf(err, errsz, "%s%s must be %s from %.0f to %.0f", prefix, f->name,
			    f->type == V_INTEGER ? "an integer" : "a number", f->lo, f->hi);
			return -1;
		}
		return 0;
	case V_OBJECT:
	case V_ARRAY: {
		int obj = f->type == V_OBJECT;
		const char *dup;
		if (obj ? !cJSON_IsObject(v) : !cJSON_IsArray(v)) {
			snprintf(err, errsz, "%s%s must be %s", prefix, f->name, obj ? "an object" : "an array");
			return -1;
		}
		if (f->max > 0 && count_entries(v) > f->max) {
			snprintf(err, errsz, "%s%s must have at most %zu entries", prefix, f->name, f->max);
			return -1;
		}
		if (count_entries(v) < f->min) {
			snprintf(err, errsz, "%s%s must have at least %zu %s", prefix, f->name, f->min,
			    f->min == 1 ? "entry" : "entries");
			return -1;
		}
		if (obj && (dup = duplicate_member(v)) != NULL) {
			snprintf(err, errsz, "%s%s has a duplicate key: %.60s", prefix, f->name, dup);
			return -1;
		}
		return 0;
	}
	}
	return -1;
}

int
valid_object(const cJSON *obj, const struct vfield *f, size_t n,
             const char *prefix, char *err, size_t errsz)
{
	const char *dup;

	if (!cJSON_IsObject(obj)) {
		snprintf(err, errsz, "%s must be an object", *prefix ? prefix : "body");
		return -1;
	}
	if (count_entries(obj) > VALID_MEMBERS_MAX) {
		snprintf(err, errsz, "%shas more than %d fields", prefix, VALID_MEMBERS_MAX);
		return -1;
	}
	if ((dup = duplicate_member(obj)) != NULL) {
		snprintf(err, errsz, "%s%.60s is given twice", prefix, dup);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, f[i].name);
		if (v == NULL || (cJSON_IsNull(v) && f[i].type != V_STRING_NULL)) {
			if (f[i].required) {
				snprintf(err, errsz, "%s%s is required", prefix, f[i].name);
				return -1;
			}
			continue;
		}
		if (check_field(v, &f[i], prefix, err, errsz) != 0)
			return -1;
	}
	return 0;
}

/* Whether the JSON text holds a \u0000 escape inside a string. */
static int
has_escaped_nul(const char *s, size_t len)
{
	int in_string = 0;

	for (size_t i = 0; i < len; i++) {
		if (!in_string) {
			if (s[i] == '"')
				in_string = 1;
			continue;
		}
		if (s[i] == '"') {
			in_string = 0;
		} else if (s[i] == '\\' && i + 1 < len) {
			if (s[i + 1] == 'u' && i + 5 < len && memcmp(s + i + 2, "0000", 4) == 0)
				return 1;
			i++;
		}
	}
	return 0;
}

cJSON *
valid_parse_body(const char *body, size_t len)
{
	const char *end = NULL;
	cJSON *v;

	if (len == 0 || memchr(body, '\0', len) != NULL || has_escaped_nul(body, len))
		return NULL;
	v = cJSON_ParseWithLengthOpts(body, len, &end, 0);
	if (v == NULL)
		return NULL;
	for (; end != NULL && end < body + len; end++) {
		if (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\r') {
			cJSON_Delete(v);
			return NULL;
		}
	}
	if (!cJSON_IsObject(v)) {
		cJSON_Delete(v);
		return NULL;
	}
	return v;
}
