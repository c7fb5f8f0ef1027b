/* lang.c: lang_negotiate() over a fuzzed Accept-Language (CONTRACT 5.3).
 *
 * Input: line 1 the available language keys, comma-separated (the keys of a
 * config's content.translations, which publish-time checks leave free),
 * line 2 the lang parameter, line 3 Accept-Language, line 4 the region's
 * default language, line 5 the content default ("~" or missing: NULL).
 * lang_direction() then gets line 2, line 3 and the key picked.
 */
#include "fuzz.h"
#include "input/lang.h"

#define AVAIL_MAX 32

static int
alpha_tag(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++, n++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return 0;
	return n >= 1 && n <= 8;
}

static void
direction(const char *tag)
{
	const char *d = lang_direction(tag);

	FUZZ_CHECK(strcmp(d, "ltr") == 0 || strcmp(d, "rtl") == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines l;
	char *avail[AVAIL_MAX];
	size_t n = 0;
	int rc;

	fuzz_split(data, size, 5, &l);
	if (l.s[0] != NULL) {
		const char *p = l.s[0];
		for (;;) {
			const char *c = strchr(p, ',');
			size_t len = c ? (size_t)(c - p) : strlen(p);
			if (n == AVAIL_MAX)
				break;
			avail[n++] = fuzz_strndup((const uint8_t *)p, len);
			if (c == NULL)
				break;
			p = c + 1;
		}
	}
	rc = lang_negotiate((const char *const *)avail, n, l.s[1], l.s[2], l.s[3], l.s[4]);
	FUZZ_CHECK(rc >= -1 && rc < (int)n);
	/* the direction of any tag, the one picked included */
	direction(l.s[1]);
	direction(l.s[2]);
	if (rc >= 0)
		direction(avail[rc]);
	/* a plain key (1-8 letters) asked for by name always matches */
	if (l.s[1] != NULL && n > 0 && strcmp(l.s[1], avail[0]) == 0 && alpha_tag(avail[0]))
		FUZZ_CHECK(rc != -1);
	while (n > 0)
		free(avail[--n]);
	fuzz_lines_free(&l);
	return 0;
}
