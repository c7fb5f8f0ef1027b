/* consentctl.c: the administration tool of the consent service (CONTRACT 3): the command line. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <unistd.h>

#include "ctl.h"
#include "admin/setup_token.h"
#include "base/hash.h"
#include "base/log.h"
#include "base/nitems.h"
#include "base/settings_file.h"
#include "input/origin.h"
#include "input/valid.h"

static const struct option {
	const char *name;
	unsigned bit;   /* 0: --db, taken by every command */
	int value;      /* takes a value */
} options[] = {
	{"--db", 0, 1},
	{"--json", OPT_JSON, 0},
	{"--name", OPT_NAME, 1},
	{"--domain", OPT_DOMAIN, 1},
	{"--tier", OPT_TIER, 1},
	{"--mau-cap", OPT_MAU_CAP, 1},
	{"--since", OPT_SINCE, 1},
	{"--until", OPT_UNTIL, 1},
	{"--format", OPT_FORMAT, 1},
	{"--publish", OPT_PUBLISH, 0},
	{"--retention-days", OPT_RETENTION, 1},
	{"--anon-id", OPT_ANON_ID, 1},
	{"--dry-run", OPT_DRY_RUN, 0},
	{"--head", OPT_HEAD, 1},
	{"--all", OPT_ALL, 0},
	{"--from", OPT_FROM, 1},
	{"--to", OPT_TO, 1},
	{"--site", OPT_SITE, 1},
	{"--no-site", OPT_NO_SITE, 0},
	{"--role", OPT_ROLE, 1},
	{"--password-stdin", OPT_PASSWORD_STDIN, 0},
	{"--settings", OPT_SETTINGS, 1},
};

/* ---- messages ---- */

/* One "consentctl: ..." line on stderr (control characters made '?');
 * returns code, so that a handler can `return ctl_say(EXIT_FAIL, ...)`. */
int
ctl_say(int code, const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_error("%s", msg);
	return code;
}

/* The exit status for a store code; NOTFOUND means an unknown site unless
 * the caller handled it.  STORE_ERROR is already on stderr. */
int
ctl_store_failed(int rc, const char *key)
{
	if (rc == STORE_NOTFOUND)
		return ctl_say(EXIT_FAIL, "unknown site: %s", key);
	if (rc == STORE_ERROR)
		return EXIT_FAIL;
	return ctl_say(EXIT_FAIL, "unexpected store result %d", rc);
}

/* ADMIN.md 8: who made a change from the command line, "consentctl:" and
 * the name of the process's user (its uid when the system has no name for
 * it): the audit records' actor and the configs' publisher. */
const char *
ctl_actor(void)
{
	static char actor[AUDIT_ACTOR_MAX + 1];
	const struct passwd *pw;

	if (actor[0] == '\0') {
		uid_t uid = geteuid();
		if ((pw = getpwuid(uid)) != NULL && pw->pw_name != NULL && pw->pw_name[0] != '\0')
			snprintf(actor, sizeof(actor), "consentctl:%.64s", pw->pw_name);
		else
			snprintf(actor, sizeof(actor), "consentctl:%lu", (unsigned long)uid);
	}
	return actor;
}

/* The database, opened on first use in the command's mode; NULL on failure
 * (reported). */
struct store *
ctl_store(struct ctl *c)
{
	if (c->st == NULL && store_open(&c->st, c->db, c->cmd->mode) != STORE_OK)
		c->st = NULL;
	return c->st;
}

/* ---- checking what the operator typed: the rules are common/'s ---- */

/* Site keys: 1-64 characters of A-Za-z0-9_- (CONTRACT 3). */
int
ctl_check_key(const char *key)
{
	if (valid_site_key(key))
		return 0;
	return ctl_say(EXIT_USAGE, "invalid site key '%s': 1-%d characters of A-Za-z0-9_-",
	    key, SITE_KEY_MAX);
}

int
ctl_check_tier(const char *s, int *free_tier)
{
	if (valid_tier(s, free_tier))
		return 0;
	return ctl_say(EXIT_USAGE, "invalid tier '%s': free or paid", s);
}

int
ctl_check_cap(const char *s, int64_t *cap)
{
	if (valid_mau_cap(s, cap))
		return 0;
	return ctl_say(EXIT_USAGE, "invalid MAU cap '%s': an integer 0-%lld, or none",
	    s, MAU_CAP_MAX);
}

int
ctl_check_name(const char *s)
{
	if (valid_site_name(s))
		return 0;
	return ctl_say(EXIT_USAGE, "invalid name: 1-%d characters of UTF-8 text without "
	    "control characters", SITE_NAME_MAX);
}

int
ctl_check_domain(const char *in, char out[HOST_MAX + 1])
{
	if (origin_normalise_domain(in, out) == 0)
		return 0;
	return ctl_say(EXIT_USAGE, "invalid domain '%s': a host name such as example.com", in);
}

int
ctl_check_since(const char *s, char out[32])
{
	if (valid_utc_time(s, out))
		return 0;
	return ctl_say(EXIT_USAGE, "invalid --since '%s': YYYY-MM-DD or "
	    "YYYY-MM-DDTHH:MM:SS[.mmm]Z (UTC)", s);
}

int
ctl_check_retention(const char *s, int64_t *days)
{
	if (valid_retention_days(s, days))
		return 0;
	return ctl_say(EXIT_USAGE, "invalid retention '%s': a number of days 1-%d, or none",
	    s, RETENTION_DAYS_MAX);
}

int
ctl_check_anon_id(const struct ctl *c, char hash[65])
{
	if (c->anon_id == NULL)
		return ctl_say(EXIT_USAGE, "%s %s needs --anon-id ID", c->cmd->word1, c->cmd->word2);
	if (!valid_anon_id(c->anon_id))
		return ctl_say(EXIT_USAGE, "invalid --anon-id: 1-%d characters of text without "
		    "control characters", ANON_ID_MAX);
	/* The consent endpoint's hash (spec 2.4), so the visitor's entries match. */
	if (hash_sha256_hex(c->anon_id, strlen(c->anon_id), hash) != 0)
		return EXIT_FAIL;
	return 0;
}

int
ctl_check_head(const char *head)
{
	if (strlen(head) == 64 && strspn(head, "0123456789abcdef") == 64)
		return 0;
	return ctl_say(EXIT_USAGE, "invalid --head '%s': the 64 hex digits of a seal's hash", head);
}

/*
 * The operands of a command on one visitor's entries (find, receipt,
 * erase): the site key checked, the hash of --anon-id in hash, and the
 * store open.  EXIT_OK, EXIT_USAGE or EXIT_FAIL (reported).
 */
int
ctl_visitor_args(struct ctl *c, char hash[65])
{
	int rc;

	if (ctl_check_key(c->operands[0]) != 0)
		return EXIT_USAGE;
	if ((rc = ctl_check_anon_id(c, hash)) != 0)
		return rc;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	return EXIT_OK;
}

/*
 * init, then the dashboard's setup token (ADMIN.md 3): while the database
 * has no account, the file beside it that POST /admin/api/setup asks for,
 * made by the same function as the dashboard's first request.
 */
static int
cmd_init_setup(struct ctl *c)
{
	int rc = cmd_init(c);

	if (rc == EXIT_OK && setup_token_prepare(c->st, c->db) != 0)
		return ctl_say(EXIT_FAIL, "cannot write the dashboard's setup token");
	return rc;
}

/* CONTRACT 3, in its order. */
static const struct command commands[] = {
	{"init", NULL, 0, 0, STORE_CREATE, cmd_init_setup,
	    "init", NULL, 0},
	{"site", "add", 1, OPT_NAME | OPT_DOMAIN | OPT_TIER | OPT_MAU_CAP, STORE_WRITE,
	    cmd_site_add,
	    "site add KEY --name NAME [--domain HOST]... [--tier free|paid] [--mau-cap N]",
	    "site.add", AUDIT_SITE},
	{"site", "set", 1, OPT_NAME | OPT_TIER | OPT_MAU_CAP | OPT_RETENTION, STORE_WRITE,
	    cmd_site_set,
	    "site set KEY [--name NAME] [--tier free|paid] [--mau-cap N|none] "
	    "[--retention-days N|none]", "site.set", AUDIT_SITE},
	{"site", "pause", 1, 0, STORE_WRITE, cmd_site_pause,
	    "site pause KEY", "site.pause", AUDIT_SITE},
	{"site", "resume", 1, 0, STORE_WRITE, cmd_site_resume,
	    "site resume KEY", "site.resume", AUDIT_SITE},
	{"site", "list", 0, OPT_JSON, STORE_READ, cmd_site_list,
	    "site list [--json]", NULL, 0},
	{"site", "show", 1, OPT_JSON, STORE_READ, cmd_site_show,
	    "site show KEY [--json]", NULL, 0},
	{"domain", "add", 2, 0, STORE_WRITE, cmd_domain_add,
	    "domain add KEY HOST", "domain.add", AUDIT_SITE},
	{"domain", "remove", 2, 0, STORE_WRITE, cmd_domain_remove,
	    "domain remove KEY HOST", "domain.remove", AUDIT_SITE},
	{"config", "publish", 2, 0, STORE_WRITE, cmd_config_publish,
	    "config publish KEY FILE|-", "config.publish", AUDIT_SITE},
	{"config", "show", 1, 0, STORE_READ, cmd_config_show,
	    "config show KEY", NULL, 0},
	{"sync", "start", 1, 0, STORE_WRITE, cmd_sync_start,
	    "sync start KEY", "sync.start", AUDIT_SITE},
	{"sync", "show", 1, OPT_JSON, STORE_READ, cmd_sync_show,
	    "sync show SYNC_ID [--json]", NULL, 0},
	{"consent", "export", 1, OPT_SINCE | OPT_FORMAT, STORE_READ, cmd_consent_export,
	    "consent export KEY [--since ISO8601] [--format jsonl|csv]", NULL, 0},
	{"consent", "seal", -1, 0, STORE_WRITE, cmd_consent_seal,
	    "consent seal [KEY]", "consent.seal", AUDIT_SITE},
	{"consent", "verify", 1, OPT_JSON | OPT_HEAD, STORE_READ, cmd_consent_verify,
	    "consent verify KEY [--head HASH] [--json]", NULL, 0},
	{"consent", "head", 1, OPT_ALL, STORE_READ, cmd_consent_head,
	    "consent head KEY [--all]", NULL, 0},
	{"consent", "receipt", 1, OPT_ANON_ID | OPT_JSON, STORE_READ, cmd_consent_receipt,
	    "consent receipt KEY --anon-id ID [--json]", NULL, 0},
	{"consent", "find", 1, OPT_ANON_ID, STORE_READ, cmd_consent_find,
	    "consent find KEY --anon-id ID", NULL, 0},
	{"consent", "erase", 1, OPT_ANON_ID, STORE_WRITE, cmd_consent_erase,
	    "consent erase KEY --anon-id ID", "consent.erase", AUDIT_SITE},
	{"purge", NULL, -1, OPT_DRY_RUN, STORE_WRITE, cmd_purge,
	    "purge [KEY] [--dry-run]", "purge", AUDIT_SITE},
	{"scripts", "list", 1, OPT_JSON, STORE_READ, cmd_scripts_list,
	    "scripts list KEY [--json]", NULL, 0},
	{"scripts", "rules", 1, OPT_JSON | OPT_PUBLISH, STORE_READ, cmd_scripts_rules,
	    "scripts rules KEY [--json | --publish]", "rules.publish", AUDIT_SITE},
	{"stats", NULL, 1, OPT_JSON, STORE_READ, cmd_stats,
	    "stats KEY [--json]", NULL, 0},
	{"report", NULL, 1, OPT_JSON | OPT_SINCE | OPT_UNTIL, STORE_READ, cmd_report,
	    "report KEY [--since DATE] [--until DATE] [--json]   # > report.html", NULL, 0},
	{"migrate", NULL, 0, OPT_FROM | OPT_TO, STORE_READ, cmd_migrate,
	    "migrate --from DB --to DB", NULL, 0},
	{"audit", "list", 0, OPT_SITE | OPT_NO_SITE | OPT_JSON, STORE_READ, cmd_audit_list,
	    "audit list [--site KEY | --no-site] [--json]", NULL, 0},
	{"audit", "seal", 0, 0, STORE_WRITE, cmd_audit_seal,
	    "audit seal", NULL, 0},
	{"audit", "verify", 0, OPT_SITE | OPT_HEAD | OPT_JSON, STORE_READ, cmd_audit_verify,
	    "audit verify [--site KEY] [--head HASH] [--json]", NULL, 0},
	{"user", "add", 1, OPT_ROLE | OPT_SITE | OPT_PASSWORD_STDIN | OPT_JSON, STORE_WRITE,
	    cmd_user_add,
	    "user add NAME --role owner|editor|viewer [--site KEY] [--password-stdin] [--json]",
	    "user.add", 0},
	{"user", "list", 0, OPT_JSON, STORE_READ, cmd_user_list,
	    "user list [--json]", NULL, 0},
	{"user", "remove", 1, 0, STORE_WRITE, cmd_user_remove,
	    "user remove NAME", "user.remove", 0},
	{"user", "reset-password", 1, OPT_JSON, STORE_WRITE, cmd_user_reset_password,
	    "user reset-password NAME [--json]", "user.reset_password", 0},
	{"user", "reset-2fa", 1, OPT_JSON, STORE_WRITE, cmd_user_reset_2fa,
	    "user reset-2fa NAME [--json]", "user.reset_2fa", 0},
	{"user", "role", 1, OPT_ROLE | OPT_SITE, STORE_WRITE, cmd_user_role,
	    "user role NAME --role owner|editor|viewer|none [--site KEY]", "user.role", 0},
};
#define NCOMMANDS (nitems(commands))

static void
usage(FILE *f)
{
	size_t i;

	fputs("usage: consentctl [--db DB] [--settings FILE] COMMAND [ARGS]\n\ncommands:\n", f);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  consentctl %s\n", commands[i].synopsis);
	fputs("\n"
	    "--db DB (anywhere on the line) names the database: a SQLite file's path or a\n"
	    "PostgreSQL connection string (postgresql://..., or host=... dbname=...); else\n"
	    "$CONSENT_DB, else the settings file's CONSENT_DB, else the compiled-in default.\n"
	    "--settings FILE names the settings file (CONSENT_*=value lines, consentctl(8));\n"
	    "without it, .htconsent in the working folder when there is one.  The\n"
	    "environment overrides the file; a file that cannot be used stops the command.\n"
	    "migrate names two databases instead: it copies the whole database --from\n"
	    "into --to, which consentctl init made and nothing wrote since (a SQLite\n"
	    "file into PostgreSQL, or back), in one transaction.\n"
	    "Exit status 0 on success, 1 on failure, 2 on a usage error; a failed\n"
	    "command changes nothing, but for a change whose audit record could not be\n"
	    "written, which says so.  Every change is recorded in the audit trail.\n", f);
}

/* Whether the command's words are at the front of the operands. */
static int
matches(const struct command *cmd, char **pos, int npos)
{
	if (npos < 1 || strcmp(pos[0], cmd->word1) != 0)
		return 0;
	return cmd->word2 == NULL || (npos >= 2 && strcmp(pos[1], cmd->word2) == 0);
}

/*
 * Split argv into options (anywhere, "--opt VALUE" or "--opt=VALUE"; "--"
 * ends them) and operands, written back into argv.  Returns the number of
 * operands, 0 for --help, or -1 after a usage message.
 */
static int
parse_args(int argc, char **argv, struct ctl *c, int *help)
{
	int i, npos = 0, dashdash = 0;
	size_t k;

	for (i = 1; i < argc; i++) {
		char *a = argv[i], *eq, *val;
		const struct option *o = NULL;

		if (dashdash || a[0] != '-' || strcmp(a, "-") == 0) {
			argv[npos++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			*help = 1;
			continue;
		}
		eq = strchr(a, '=');
		for (k = 0; k < nitems(options); k++)
			if (strncmp(a, options[k].name, eq ? (size_t)(eq - a) : strlen(a)) == 0 &&
			    options[k].name[eq ? (size_t)(eq - a) : strlen(a)] == '\0')
				o = &options[k];
		if (o == NULL)
			return ctl_say(-1, "unknown option %s (see consentctl --help)", a);
		if (!o->value) {
			if (eq != NULL)
				return ctl_say(-1, "option %s takes no value", o->name);
			c->given |= o->bit;
			continue;
		}
		if (eq != NULL)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			return ctl_say(-1, "option %s needs a value", o->name);
		if (o->bit == 0 && *val == '\0')  /* SQLite would open a temporary file */
			return ctl_say(-1, "option --db needs a database: a path or a connection string");
		if (o->bit != OPT_DOMAIN && ((o->bit & c->given) ||
		    (o->bit == 0 && c->db != NULL)))
			return ctl_say(-1, "option %s given twice", o->name);
		c->given |= o->bit;
		switch (o->bit) {
		case 0: c->db = val; break;
		case OPT_NAME: c->name = val; break;
		case OPT_TIER: c->tier = val; break;
		case OPT_MAU_CAP: c->mau_cap = val; break;
		case OPT_SINCE: c->since = val; break;
		case OPT_UNTIL: c->until = val; break;
		case OPT_FORMAT: c->format = val; break;
		case OPT_RETENTION: c->retention = val; break;
		case OPT_ANON_ID: c->anon_id = val; break;
		case OPT_HEAD: c->head = val; break;
		case OPT_FROM: c->from = val; break;
		case OPT_TO: c->to = val; break;
		case OPT_ROLE: c->role = val; break;
		case OPT_SITE: c->site = val; break;
		case OPT_SETTINGS: c->settings = val; break;
		case OPT_DOMAIN: c->domains[c->ndomains++] = val; break;
		}
	}
	return npos;
}

int
main(int argc, char **argv)
{
	struct ctl c;
	const struct command *cmd = NULL;
	const char *why;
	int npos, help = 0, words, rc;
	size_t i;

	log_init("consentctl");
	memset(&c, 0, sizeof(c));
	if ((c.domains = calloc((size_t)argc, sizeof(*c.domains))) == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	if ((npos = parse_args(argc, argv, &c, &help)) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (help) {
		usage(stdout);
		rc = EXIT_OK;
		goto out;
	}
	for (i = 0; i < NCOMMANDS && cmd == NULL; i++)
		if (matches(&commands[i], argv, npos))
			cmd = &commands[i];
	if (cmd == NULL) {
		if (npos == 0)
			rc = ctl_say(EXIT_USAGE, "no command (see consentctl --help)");
		else
			rc = ctl_say(EXIT_USAGE, "unknown command: %s%s%s (see consentctl --help)",
			    argv[0], npos > 1 ? " " : "", npos > 1 ? argv[1] : "");
		goto out;
	}
	words = cmd->word2 != NULL ? 2 : 1;
	for (i = 0; i < nitems(options); i++)
		if (options[i].bit & c.given & ~(cmd->opts | OPT_SETTINGS)) {
			rc = ctl_say(EXIT_USAGE, "%s%s%s does not take %s", cmd->word1,
			    words > 1 ? " " : "", words > 1 ? cmd->word2 : "",
			    options[i].name);
			goto out;
		}
	/* nargs -1: one optional operand (KEY). */
	if (cmd->nargs >= 0 ? npos - words != cmd->nargs : npos - words > 1) {
		rc = ctl_say(EXIT_USAGE, "usage: consentctl %s", cmd->synopsis);
		goto out;
	}
	/* ADMIN.md 9: the settings file the programs read, named or here. */
	settings_use(c.settings != NULL ? c.settings : SETTINGS_FILE, c.settings != NULL);
	if (settings_state(&why) == SETTINGS_BAD) {
		rc = ctl_say(EXIT_FAIL, "the settings file %s cannot be used: %s", settings_path(), why);
		goto out;
	}
	c.noperands = npos - words;
	c.cmd = cmd;
	c.operands = argv + words;
	c.audit.version = -1;
	rc = cmd->run(&c);
	/* ADMIN.md 8: a change is recorded once it is done. */
	if (rc == EXIT_OK && cmd->audit != NULL && !c.audit.skip)
		rc = ctl_audit(&c, cmd->audit_site && c.noperands > 0 ? c.operands[0] : NULL,
		    cmd->audit, c.audit.detail, c.audit.version);
	cJSON_Delete(c.audit.detail);
	store_close(c.st);
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = ctl_say(EXIT_FAIL, "cannot write the output: %s", strerror(errno));
out:
	free(c.domains);
	return rc;
}
