/* ctl_users.c: consentctl user: the dashboard's accounts, their roles, passwords and second factors (ADMIN.md 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>

#include "admin/password.h"
#include "admin/token.h"
#include "admin/enrol.h"
#include "base/log.h"
#include "base/nitems.h"
#include "ctl.h"
#include "store/store_account.h"

/* How long a reset code is valid. */
#define USER_RESET_SECONDS 86400
/* The longest line --password-stdin reads: PASSWORD_MAX code points of up
 * to four bytes, the line's end, and one byte more to notice a longer one. */
#define USER_PASSWORD_LINE (PASSWORD_MAX * 4 + 3)

/* The NAME operand: 0, or EXIT_USAGE after the message. */
static int
check_user(const char *name)
{
	if (store_account_name_ok(name))
		return 0;
	return ctl_say(EXIT_USAGE, "invalid user name '%s': 1-%d characters of a-z0-9._@-", name,
	    STORE_ACCOUNT_NAME_MAX);
}

/* --role (none allowed when none_ok: *role NULL) and --site (default
 * "*"): 0, or EXIT_USAGE after the message. */
static int
check_role(const struct ctl *c, int none_ok, const char **role, const char **site)
{
	if (c->role == NULL)
		return ctl_say(EXIT_USAGE, "%s %s needs --role owner|editor|viewer%s", c->cmd->word1,
		    c->cmd->word2, none_ok ? "|none" : "");
	if (none_ok && strcmp(c->role, "none") == 0)
		*role = NULL;
	else if (store_role_ok(c->role))
		*role = c->role;
	else
		return ctl_say(EXIT_USAGE, "invalid role '%s': owner, editor or viewer%s", c->role,
		    none_ok ? " (or none)" : "");
	*site = c->site != NULL ? c->site : "*";
	if (strcmp(*site, "*") != 0 && ctl_check_key(*site) != 0)
		return EXIT_USAGE;
	return 0;
}

/* The exit status for a store code of a command on user name. */
static int
user_failed(int rc, const char *name)
{
	if (rc == STORE_NOTFOUND)
		return ctl_say(EXIT_FAIL, "unknown user: %s", name);
	return ctl_store_failed(rc, name);
}

/*
 * One line of standard input as the new password, its line end dropped,
 * checked by the dashboard's policy (password_check) and hashed into phc.
 * EXIT_OK, EXIT_USAGE (no line, or the policy refuses it: the reason
 * said), or EXIT_FAIL.
 */
static int
read_password(char phc[PASSWORD_PHC_MAX])
{
	char line[USER_PASSWORD_LINE];
	enum password_err err;
	size_t n;
	int rc;

	if (fgets(line, sizeof(line), stdin) == NULL)
		return ctl_say(EXIT_USAGE, "--password-stdin: no password on standard input");
	n = strlen(line);
	if (n > 0 && line[n - 1] == '\n')
		line[--n] = '\0';
	else if (n == sizeof(line) - 1)
		return ctl_say(EXIT_USAGE, "password refused: %s",
		    password_message(PASSWORD_TOO_LONG));
	if (n > 0 && line[n - 1] == '\r')
		line[--n] = '\0';
	if (strlen(line) != n) {
		rc = ctl_say(EXIT_USAGE, "password refused: %s", password_message(PASSWORD_NOT_UTF8));
		goto out;
	}
	if ((err = password_check(line)) != PASSWORD_OK) {
		rc = ctl_say(EXIT_USAGE, "password refused: %s", password_message(err));
		goto out;
	}
	rc = password_hash(line, phc) == PASSWORD_OK ? EXIT_OK : EXIT_FAIL;
out:
	OPENSSL_cleanse(line, sizeof(line));
	return rc;
}

/* A new second factor: its secret (base32), the otpauth URI, ten recovery
 * codes and their hashes (what the store keeps). */
/* A new reset code for the account, valid USER_RESET_SECONDS from now
 * (it replaces any earlier one), added to out as reset_code and
 * reset_expires.  EXIT_OK or EXIT_FAIL (reported). */
static int
reset_code(struct ctl *c, const char *name, time_t now, cJSON *out)
{
	char code[TOKEN_LEN + 1], hash[65], until[32];
	struct tm tm;
	int rc;

	if (token_new(code) != 0 || token_hash(code, hash) != 0)
		return ctl_say(EXIT_FAIL, "cannot make a reset code");
	if ((rc = store_reset_add(c->st, name, hash, (int64_t)now + USER_RESET_SECONDS)) != STORE_OK)
		return user_failed(rc, name);
	now += USER_RESET_SECONDS;
	strftime(until, sizeof(until), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	if (cJSON_AddStringToObject(out, "reset_code", code) == NULL ||
	    cJSON_AddStringToObject(out, "reset_expires", until) == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	return EXIT_OK;
}

/* What a command made that is shown once (codes, URI), printed with the
 * account's name: EXIT_OK or EXIT_FAIL. */
static int
print_once(const struct ctl *c, cJSON *out)
{
	int rc = ctl_print_record(c, out);

	cJSON_Delete(out);
	return rc;
}

/* The command's audit detail (ADMIN.md 8, what changed), as the
 * dashboard records it: {"username", "roles"?}. */
static int
user_audited(struct ctl *c, const char *name, const cJSON *roles)
{
	int rc = ctl_audit_set(c, "username", cJSON_CreateString(name));

	if (rc == EXIT_OK && roles != NULL)
		rc = ctl_audit_set(c, "roles", cJSON_Duplicate(roles, 1));
	return rc;
}

/*
 * user add NAME --role R [--site KEY] [--password-stdin]: the account and
 * its one role, in one transaction.  Without a password, a reset code the
 * user enters in the dashboard; an owner gets a second factor, confirmed
 * by the first sign-in with a code from it.  What is secret is printed
 * once and stored only as hashes.
 */
int
cmd_user_add(struct ctl *c)
{
	const char *name = c->operands[0], *role, *site;
	char phc[PASSWORD_PHC_MAX] = "";
	struct enrol f;
	cJSON *roles = NULL, *out = NULL;
	int owner, rc;

	if (check_user(name) != 0 || check_role(c, 0, &role, &site) != 0)
		return EXIT_USAGE;
	if ((c->given & OPT_PASSWORD_STDIN) && (rc = read_password(phc)) != EXIT_OK)
		return rc;
	owner = strcmp(role, "owner") == 0;
	rc = EXIT_FAIL;
	if (owner && enrol_new(name, &f) != 0)
		goto out;
	if ((roles = cJSON_CreateObject()) == NULL ||
	    cJSON_AddStringToObject(roles, site, role) == NULL ||
	    (out = cJSON_CreateObject()) == NULL ||
	    cJSON_AddStringToObject(out, "username", name) == NULL ||
	    (owner && enrol_json(out, &f) != 0)) {
		rc = ctl_say(EXIT_FAIL, "out of memory");
		goto out;
	}
	if (ctl_store(c) == NULL)
		goto out;
	rc = store_account_add(c->st, name, phc[0] != '\0' ? phc : NULL, owner ? f.secret : NULL,
	    owner ? f.hash : NULL, owner ? TOKEN_RECOVERY_COUNT : 0, roles, (int64_t)time(NULL));
	if (rc == STORE_EXISTS) {
		rc = ctl_say(EXIT_FAIL, "user %s already exists", name);
		goto out;
	}
	if (rc == STORE_NOTFOUND) {
		rc = ctl_say(EXIT_FAIL, "unknown site: %s", site);
		goto out;
	}
	if (rc != STORE_OK) {
		rc = ctl_store_failed(rc, name);
		goto out;
	}
	if ((phc[0] == '\0' && (rc = reset_code(c, name, time(NULL), out)) != EXIT_OK) ||
	    (rc = user_audited(c, name, roles)) != EXIT_OK)
		goto out;
	rc = print_once(c, out);
	out = NULL;
out:
	OPENSSL_cleanse(&f, sizeof(f));
	cJSON_Delete(roles);
	cJSON_Delete(out);
	return rc;
}

/* A row of user list for people and scripts alike: created_at as UTC
 * ISO 8601, as the other listings give times. */
static int
user_row(const cJSON *row, void *arg)
{
	cJSON *copy = cJSON_Duplicate(row, 1);
	char iso[32];
	time_t t;
	struct tm tm;

	if (copy == NULL)
		return ctl_say(STORE_ERROR, "out of memory");
	t = (time_t)ctl_int_of(row, "created_at");
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	if (!cJSON_ReplaceItemInObjectCaseSensitive(copy, "created_at", cJSON_CreateString(iso)) ||
	    !cJSON_AddItemToArray(arg, copy)) {
		cJSON_Delete(copy);
		return ctl_say(STORE_ERROR, "out of memory");
	}
	return 0;
}

int
cmd_user_list(struct ctl *c)
{
	static const struct ctl_column cols[] = {
		{"USER", "username"}, {"TOTP", "totp"}, {"CREATED", "created_at"},
		{"ROLES", "roles"},
	};
	cJSON *rows = cJSON_CreateArray();
	int rc = EXIT_FAIL;

	if (rows == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	if (ctl_store(c) != NULL && store_account_list(c->st, user_row, rows) == STORE_OK)
		rc = ctl_print_rows(c, rows, cols, nitems(cols));
	cJSON_Delete(rows);
	return rc;
}

/* user remove NAME: the account with its roles, codes and sessions. */
int
cmd_user_remove(struct ctl *c)
{
	const char *name = c->operands[0];
	int rc;

	if (check_user(name) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_account_remove(c->st, name);
	return rc == STORE_OK ? user_audited(c, name, NULL) : user_failed(rc, name);
}

/*
 * user reset-password NAME: the password cleared and every session ended
 * (so a password someone else learnt opens nothing more), then a new
 * one-time reset code, printed once.
 */
int
cmd_user_reset_password(struct ctl *c)
{
	const char *name = c->operands[0];
	time_t now = time(NULL);
	cJSON *out;
	int rc;

	if (check_user(name) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rc = store_account_set_password(c->st, name, NULL, NULL, (int64_t)now)) != STORE_OK)
		return user_failed(rc, name);
	if ((out = cJSON_CreateObject()) == NULL ||
	    cJSON_AddStringToObject(out, "username", name) == NULL) {
		cJSON_Delete(out);
		return ctl_say(EXIT_FAIL, "out of memory");
	}
	if ((rc = reset_code(c, name, now, out)) != EXIT_OK ||
	    (rc = user_audited(c, name, NULL)) != EXIT_OK) {
		cJSON_Delete(out);
		return rc;
	}
	return print_once(c, out);
}

/* user reset-2fa NAME: a new unconfirmed secret and recovery codes, every
 * session ended; the URI and codes printed once. */
int
cmd_user_reset_2fa(struct ctl *c)
{
	const char *name = c->operands[0];
	struct enrol f;
	cJSON *out = NULL;
	int rc = EXIT_FAIL;

	if (check_user(name) != 0)
		return EXIT_USAGE;
	if (enrol_new(name, &f) != 0)
		goto out;
	if ((out = cJSON_CreateObject()) == NULL ||
	    cJSON_AddStringToObject(out, "username", name) == NULL || enrol_json(out, &f) != 0) {
		rc = ctl_say(EXIT_FAIL, "out of memory");
		goto out;
	}
	if (ctl_store(c) == NULL)
		goto out;
	rc = store_account_reset_2fa(c->st, name, f.secret, f.hash, TOKEN_RECOVERY_COUNT, NULL);
	if (rc != STORE_OK) {
		rc = user_failed(rc, name);
		goto out;
	}
	if ((rc = user_audited(c, name, NULL)) != EXIT_OK)
		goto out;
	rc = print_once(c, out);
	out = NULL;
out:
	OPENSSL_cleanse(&f, sizeof(f));
	cJSON_Delete(out);
	return rc;
}

/* user role NAME --role R|none [--site KEY]: the account's role on that
 * site (or "*") set, or removed with none; its other roles kept. */
int
cmd_user_role(struct ctl *c)
{
	const char *name = c->operands[0], *role, *site;
	struct store_account a;
	int rc;

	memset(&a, 0, sizeof(a));
	if (check_user(name) != 0 || check_role(c, 1, &role, &site) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rc = store_account_get(c->st, name, &a)) != STORE_OK)
		return user_failed(rc, name);
	cJSON_DeleteItemFromObjectCaseSensitive(a.roles, site);
	if (role != NULL && cJSON_AddStringToObject(a.roles, site, role) == NULL) {
		rc = ctl_say(EXIT_FAIL, "out of memory");
		goto out;
	}
	/* The account was there a moment ago: NOTFOUND is the site. */
	rc = store_account_set_roles(c->st, name, a.roles);
	if (rc == STORE_NOTFOUND)
		rc = ctl_say(EXIT_FAIL, "unknown site: %s", site);
	else if (rc != STORE_OK)
		rc = ctl_store_failed(rc, name);
	else
		rc = user_audited(c, name, a.roles);
out:
	store_account_clear(&a);
	return rc;
}
