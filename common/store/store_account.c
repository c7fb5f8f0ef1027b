/* store_account.c: what both backends of the account store share: the checks of names and roles, and freeing an account. */
#include <stdlib.h>
#include <string.h>

#include "store/store_account.h"
#include "store/store_account_sql.h"

int
store_account_name_ok(const char *name)
{
	size_t n;

	if (name == NULL)
		return 0;
	n = strlen(name);
	if (n < 1 || n > STORE_ACCOUNT_NAME_MAX)
		return 0;
	return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789._@-") == n;
}

int
store_role_ok(const char *role)
{
	return role != NULL && (strcmp(role, "owner") == 0 || strcmp(role, "editor") == 0 ||
	    strcmp(role, "viewer") == 0);
}

void
store_account_clear(struct store_account *a)
{
	if (a == NULL)
		return;
	free(a->password);
	free(a->totp_secret);
	cJSON_Delete(a->roles);
	memset(a, 0, sizeof(*a));
	a->totp_last_step = -1;
	a->password_changed_at = -1;
}

/* Length of the UTF-8 sequence that starts s (1-4), or 0 when s holds none. */
static size_t
utf8_seq(const unsigned char *s)
{
	size_t n, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1fu;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0fu;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

void
store_attempt_name(const char *typed, char out[STORE_ATTEMPT_NAME_MAX + 1])
{
	const unsigned char *s = (const unsigned char *)(typed != NULL ? typed : "");
	size_t o = 0, n;

	while (*s != '\0') {
		n = utf8_seq(s);
		if (n == 0 || s[0] < 0x20 || s[0] == 0x7f) {
			n = 1;
			if (o + 1 > STORE_ATTEMPT_NAME_MAX)
				break;
			out[o++] = '?';
		} else {
			if (o + n > STORE_ATTEMPT_NAME_MAX)
				break;
			memcpy(out + o, s, n);
			o += n;
		}
		s += n;
	}
	out[o] = '\0';
}

int
store_roles_ok(const cJSON *roles)
{
	const cJSON *r;

	if (roles == NULL)
		return 1;
	if (!cJSON_IsObject(roles))
		return 0;
	cJSON_ArrayForEach(r, roles)
		if (r->string == NULL || r->string[0] == '\0' || strlen(r->string) > 64 ||
		    !cJSON_IsString(r) || !store_role_ok(r->valuestring))
			return 0;
	return 1;
}
