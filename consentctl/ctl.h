/* ctl.h: what the parts of consentctl share: the parsed command line, messages, checks, output. */
#ifndef CONSENT_CTL_H
#define CONSENT_CTL_H

/*
 * consentctl.c parses the command line and dispatches; each ctl_*.c runs
 * the commands of one concern through store.h (the list is above the
 * commands' prototypes below), and ctl_output.c formats what they print.
 * No part checks a value itself: the rules are common/'s (valid.c,
 * origin.c, uuid.c, configdoc.c; the proof's digests, trees and chain of
 * seals in proof/); the ctl_check_* functions only word the usage
 * message.
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/limits.h"
#include "store/store_admin.h"
#include "store/store_audit.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Options, one bit each, so that a command can list those it takes. */
enum {
	OPT_JSON = 1 << 0,
	OPT_NAME = 1 << 1,
	OPT_DOMAIN = 1 << 2,
	OPT_TIER = 1 << 3,
	OPT_MAU_CAP = 1 << 4,
	OPT_SINCE = 1 << 5,
	OPT_FORMAT = 1 << 6,
	OPT_PUBLISH = 1 << 7,
	OPT_RETENTION = 1 << 8,
	OPT_ANON_ID = 1 << 9,
	OPT_DRY_RUN = 1 << 10,
	OPT_HEAD = 1 << 11,
	OPT_ALL = 1 << 12,
	OPT_UNTIL = 1 << 13,
	OPT_FROM = 1 << 14,
	OPT_TO = 1 << 15,
	OPT_SITE = 1 << 16,
	OPT_NO_SITE = 1 << 17,
	OPT_ROLE = 1 << 18,
	OPT_PASSWORD_STDIN = 1 << 19,
	OPT_SETTINGS = 1 << 20,   /* every command takes it */
};

/* The command line, parsed, and the database once a command opened it. */
struct ctl {
	const struct command *cmd;
	char **operands;      /* after the command words */
	int noperands;
	const char *db;       /* --db, or NULL: $CONSENT_DB, the settings file's, the default */
	const char *settings; /* --settings FILE, or NULL: ./.htconsent if there */
	unsigned given;       /* OPT_* bits present */
	const char *name, *tier, *mau_cap, *since, *until, *format;
	const char *retention, *anon_id, *head;
	const char *from, *to;  /* migrate's databases */
	const char *site;     /* --site KEY (audit list and verify, user add and role) */
	const char *role;     /* --role (user add, user role) */
	const char **domains; /* every --domain, in order */
	size_t ndomains;
	struct store *st;
	/* The audit record of a command that changes something (struct
	 * command's audit), written by main() once the command succeeded:
	 * what the command sets here as it succeeds. */
	struct {
		cJSON *detail;    /* what changed (owned; NULL: nothing to add) */
		int64_t version;  /* the config version published, or -1 */
		int skip;         /* 1: nothing changed (a dry run, nothing to
		                     seal), or the command wrote its records itself */
	} audit;
};

struct command {
	const char *word1, *word2;  /* word2 NULL: a one-word command */
	int nargs;                  /* operands after the words; -1: KEY optional */
	unsigned opts;              /* OPT_* bits it takes */
	enum store_mode mode;
	int (*run)(struct ctl *);
	const char *synopsis;
	/* ADMIN.md 8: the action of the audit record a successful run writes
	 * ("site.add"; NULL: the command changes nothing), and whether its
	 * first operand is the record's site key (AUDIT_SITE; else the record
	 * is of no site). */
	const char *audit;
	int audit_site;
};
#define AUDIT_SITE 1

/* ---- messages (consentctl.c) ---- */

/* One "consentctl: ..." line on stderr (control characters made '?');
 * returns code, so that a handler can `return ctl_say(EXIT_FAIL, ...)`. */
int ctl_say(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The exit status for a store code; NOTFOUND means an unknown site unless
 * the caller handled it.  STORE_ERROR is already on stderr. */
int ctl_store_failed(int rc, const char *key);
/* The database, opened on first use in the command's mode; NULL on failure
 * (reported). */
struct store *ctl_store(struct ctl *c);
/* Who makes changes from the command line (ADMIN.md 8): "consentctl:" and
 * the name of the process's user (static): the audit records' actor and
 * the configs' publisher. */
const char *ctl_actor(void);

/* ---- what the operator typed: 0, or EXIT_USAGE after the message ---- */

int ctl_check_key(const char *key);
int ctl_check_tier(const char *s, int *free_tier);
int ctl_check_cap(const char *s, int64_t *cap);
int ctl_check_name(const char *s);
int ctl_check_domain(const char *in, char out[HOST_MAX + 1]);
int ctl_check_since(const char *s, char out[32]);
int ctl_check_retention(const char *s, int64_t *days);
/* --head: the 64 lower-case hex digits of a seal's hash. */
int ctl_check_head(const char *head);
/* --anon-id present and well-formed, hashed as the consent endpoint does. */
int ctl_check_anon_id(const struct ctl *c, char hash[65]);
/* The operands of a command on one visitor's entries (consent find,
 * receipt, erase): the site key checked, the hash of --anon-id in hash, and
 * the store open.  EXIT_OK, EXIT_USAGE or EXIT_FAIL (reported). */
int ctl_visitor_args(struct ctl *c, char hash[65]);

/* The record fn (store_site_show, store_stats) gives for the KEY operand,
 * printed (ctl_sites.c). */
int ctl_show_site(struct ctl *c, int (*fn)(struct store *, const char *, cJSON **));

/* Publish a config document as the site's next version, which is printed,
 * through publish.c (checked, prepared, the built-in texts recorded): config
 * publish and scripts rules --publish (ctl_configs.c).  EXIT_OK or
 * EXIT_FAIL (reported). */
int ctl_publish_json(struct ctl *c, const char *key, const cJSON *json);

/* Record this build's built-in texts (builtin_texts, INSERT OR IGNORE):
 * what init and config publish do.  STORE_OK or STORE_ERROR (reported). */
int ctl_record_builtin(struct ctl *c);

/*
 * Write an audit record (store_audit_add) as "consentctl:" and the name of
 * the process's user: after the change succeeded, so a failure says that
 * the change is done and its record is missing.  site NULL: a record of no
 * site; detail NULL: none (not consumed); version -1: none.  EXIT_OK or
 * EXIT_FAIL (reported).  ctl_audit.c.
 */
int ctl_audit(struct ctl *c, const char *site, const char *action, const cJSON *detail,
              int64_t version);
/* Add name: value (consumed; NULL: out of memory) to the detail of c's
 * record (c->audit.detail, freed by main()).  EXIT_OK or EXIT_FAIL
 * (reported). */
int ctl_audit_set(struct ctl *c, const char *name, cJSON *value);

/* ---- output (ctl_output.c): 0 (EXIT_OK) or EXIT_FAIL ---- */

/* A JSON document on stdout, formatted. */
int ctl_print_json(const cJSON *doc);
/* An object: JSON with --json, else aligned "key  value" lines (nested
 * objects as dotted keys, arrays as space-separated items). */
int ctl_print_record(const struct ctl *c, const cJSON *obj);

/* One column of a table: its title and the row member it shows. */
struct ctl_column {
	const char *title;
	const char *key;
};
/* A list command's rows: with --json one array, else a table under a title
 * line (nothing when there are no rows). */
int ctl_print_rows(const struct ctl *c, const cJSON *rows,
                   const struct ctl_column *cols, size_t ncols);
/* store_row_fn: keep a copy of every row in the array arg. */
int ctl_collect(const cJSON *row, void *arg);
/* A member of a row as text ("" when it is not a string), as a number (-1
 * when it is not one). */
const char *ctl_text_of(const cJSON *row, const char *name);
int64_t ctl_int_of(const cJSON *row, const char *name);

/*
 * A verify's verdict as JSON: {"ok": true, and the members of found} when
 * failure is "", else {"ok": false, "error": failure, noun: id (when > 0),
 * "seal": seal (when > 0)}.  found is consumed (NULL: out of memory).
 * EXIT_OK when it verified, else EXIT_FAIL.
 */
int ctl_print_verdict(const char *failure, const char *noun, int64_t id, int64_t seal,
                      cJSON *found);
/* A verdict object (verdict_object(), consumed; NULL: out of memory)
 * printed: EXIT_OK, or EXIT_FAIL when failed. */
int ctl_print_verdict_json(cJSON *out, int failed);

/* export.h's writer of consent export and find: the bytes to stdout. */
int ctl_stdout_write(void *arg, const char *buf, size_t n);

/* ---- the commands, by file ---- */

/* ctl_configs.c: init, config publish and show. */
int cmd_init(struct ctl *c);
int cmd_config_publish(struct ctl *c);
int cmd_config_show(struct ctl *c);
/* ctl_sites.c: sites and their domains. */
int cmd_site_add(struct ctl *c);
int cmd_site_set(struct ctl *c);
int cmd_site_pause(struct ctl *c);
int cmd_site_resume(struct ctl *c);
int cmd_site_list(struct ctl *c);
int cmd_site_show(struct ctl *c);
int cmd_domain_add(struct ctl *c);
int cmd_domain_remove(struct ctl *c);
/* ctl_scripts.c: tracker syncs, the script inventory and its rules. */
int cmd_sync_start(struct ctl *c);
int cmd_sync_show(struct ctl *c);
int cmd_scripts_list(struct ctl *c);
int cmd_scripts_rules(struct ctl *c);
/* ctl_log.c: reading the consent log. */
int cmd_consent_export(struct ctl *c);
int cmd_stats(struct ctl *c);
/* ctl_seal.c: sealing the consent log, and its seals. */
int cmd_consent_seal(struct ctl *c);
int cmd_consent_head(struct ctl *c);
/* ctl_verify.c: the whole log of a site recomputed (proof/chain.h walks the seals). */
int cmd_consent_verify(struct ctl *c);
/* ctl_receipt.c: what a visitor was shown and chose, with proofs. */
int cmd_consent_receipt(struct ctl *c);
/* ctl_erase.c: one visitor's entries found or erased; entries past retention purged. */
int cmd_consent_find(struct ctl *c);
int cmd_consent_erase(struct ctl *c);
int cmd_purge(struct ctl *c);
/* ctl_report.c: the operator report, one period of a site as a page. */
int cmd_report(struct ctl *c);
/* ctl_migrate.c: a database copied into the other kind of store. */
int cmd_migrate(struct ctl *c);
/* ctl_audit.c: the audit trail (ADMIN.md 8): its records, sealed and verified. */
int cmd_audit_list(struct ctl *c);
int cmd_audit_seal(struct ctl *c);
int cmd_audit_verify(struct ctl *c);
/* ctl_users.c: the dashboard's accounts. */
int cmd_user_add(struct ctl *c);
int cmd_user_list(struct ctl *c);
int cmd_user_remove(struct ctl *c);
int cmd_user_reset_password(struct ctl *c);
int cmd_user_reset_2fa(struct ctl *c);
int cmd_user_role(struct ctl *c);

/* Seal every unsealed entry of the site (ctl_seal.c): init and purge too;
 * *sealed (may be NULL) receives how many.  EXIT_OK or EXIT_FAIL
 * (reported). */
int ctl_seal_site(struct ctl *c, const char *key, int64_t *sealed);
/* store_site_keys's callback: ctl_seal_site() on each site (arg the
 * struct ctl *). */
int ctl_seal_each(const char *key, int64_t days, void *arg);

#endif
