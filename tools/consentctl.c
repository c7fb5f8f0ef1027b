/* consentctl.c: the administration tool of the consent service (CONTRACT 3). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "configdoc.h"
#include "defaults.h"
#include "limits.h"
#include "log.h"
#include "origin.h"
#include "resolve.h"
#include "scriptrules.h"
#include "store.h"
#include "uuid.h"

/* The schema, compiled in from schema.sql (tools/embed.sh). */
extern const char schema_data[];

/* Site names: long enough for any real site or company name, short enough
 * to list on one line. */
#define SITE_NAME_MAX 200
/* --mau-cap: a billion monthly visitors is beyond any free-tier site. */
#define MAU_CAP_MAX 1000000000LL
/* config publish reads at most this much: the default config is about 8 KiB,
 * a document with every language of the EU is well under 1 MiB. */
#define CONFIG_FILE_MAX (1024 * 1024)

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
};

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
	{"--format", OPT_FORMAT, 1},
	{"--publish", OPT_PUBLISH, 0},
};

/* The command line, parsed, and the database once a command opened it. */
struct ctl {
	const struct command *cmd;
	char **operands;      /* after the command words */
	const char *db;       /* --db, or NULL: $CONSENT_DB, else the default */
	unsigned given;       /* OPT_* bits present */
	const char *name, *tier, *mau_cap, *since, *format;
	const char **domains; /* every --domain, in order */
	size_t ndomains;
	struct store *st;
};

struct command {
	const char *word1, *word2;  /* word2 NULL: a one-word command */
	int nargs;                  /* operands after the words */
	unsigned opts;              /* OPT_* bits it takes */
	enum store_mode mode;
	int (*run)(struct ctl *);
	const char *synopsis;
};

/* ---- messages ---- */

static int say(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One "consentctl: ..." line on stderr (control characters made '?');
 * returns code, so that a handler can `return say(EXIT_FAIL, ...)`. */
static int
say(int code, const char *fmt, ...)
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
static int
store_failed(int rc, const char *key)
{
	if (rc == STORE_NOTFOUND)
		return say(EXIT_FAIL, "unknown site: %s", key);
	if (rc == STORE_ERROR)
		return EXIT_FAIL;
	return say(EXIT_FAIL, "unexpected store result %d", rc);
}

/* The database, opened on first use in the command's mode; NULL on failure
 * (reported). */
static struct store *
ctl_store(struct ctl *c)
{
	if (c->st == NULL && store_open(&c->st, c->db, c->cmd->mode) != STORE_OK)
		c->st = NULL;
	return c->st;
}

/* ---- checking what the operator typed ---- */

/* Site keys: 1-64 characters of A-Za-z0-9_- (CONTRACT 3). */
static int
check_key(const char *key)
{
	size_t n = strlen(key);

	if (n >= 1 && n <= SITE_KEY_MAX && strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_-") == n)
		return 0;
	return say(EXIT_USAGE, "invalid site key '%s': 1-%d characters of A-Za-z0-9_-",
	    key, SITE_KEY_MAX);
}

/* free -> 1, paid -> 0. */
static int
check_tier(const char *s, int *free_tier)
{
	if (strcmp(s, "free") == 0 || strcmp(s, "paid") == 0) {
		*free_tier = s[0] == 'f';
		return 0;
	}
	return say(EXIT_USAGE, "invalid tier '%s': free or paid", s);
}

/* A decimal integer 0..MAU_CAP_MAX, or "none" (-1): no cap of its own. */
static int
check_cap(const char *s, int64_t *cap)
{
	char *end;
	long long v;

	if (strcmp(s, "none") == 0) {
		*cap = -1;
		return 0;
	}
	errno = 0;
	v = (s[0] >= '0' && s[0] <= '9') ? strtoll(s, &end, 10) : -1;
	if (v < 0 || errno != 0 || *end != '\0' || v > MAU_CAP_MAX)
		return say(EXIT_USAGE, "invalid MAU cap '%s': an integer 0-%lld, or none",
		    s, MAU_CAP_MAX);
	*cap = v;
	return 0;
}

/*
 * Length in code points of well-formed UTF-8 without control characters
 * (C0, DEL, C1), or -1.
 */
static long
text_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	long n = 0;

	while (*p != '\0') {
		unsigned long cp;
		int len, i;

		if (*p < 0x80) {
			cp = *p, len = 1;
		} else if (*p >= 0xc2 && *p <= 0xdf) {
			cp = *p & 0x1f, len = 2;
		} else if (*p >= 0xe0 && *p <= 0xef) {
			cp = *p & 0x0f, len = 3;
		} else if (*p >= 0xf0 && *p <= 0xf4) {
			cp = *p & 0x07, len = 4;
		} else {
			return -1;
		}
		for (i = 1; i < len; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return -1;
			cp = (cp << 6) | (p[i] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
		    cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			return -1;
		p += len;
		n++;
	}
	return n;
}

static int
check_name(const char *s)
{
	long n = text_chars(s);

	if (n >= 1 && n <= SITE_NAME_MAX)
		return 0;
	return say(EXIT_USAGE, "invalid name: 1-%d characters of UTF-8 text without "
	    "control characters", SITE_NAME_MAX);
}

static int
check_domain(const char *in, char out[HOST_MAX + 1])
{
	if (origin_normalise_domain(in, out) == 0)
		return 0;
	return say(EXIT_USAGE, "invalid domain '%s': a host name such as example.com", in);
}

/* n decimal digits at s, within lo..hi, into *v. */
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

/*
 * --since: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.mmm]Z (UTC), written in the
 * stored form "YYYY-MM-DDTHH:MM:SS.mmmZ" so it compares as text.
 */
static int
check_since(const char *s, char out[32])
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int y, mo, d, h = 0, mi = 0, sec = 0, ms = 0, i;
	size_t n = strlen(s);
	const char *p;

	if (n < 10 || digits(s, 4, 0, 9999, &y) || s[4] != '-' ||
	    digits(s + 5, 2, 1, 12, &mo) || s[7] != '-' ||
	    digits(s + 8, 2, 1, mdays[mo - 1], &d) ||
	    (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))))
		goto bad;
	if (n > 10) {
		if (n < 20 || s[10] != 'T' || digits(s + 11, 2, 0, 23, &h) ||
		    s[13] != ':' || digits(s + 14, 2, 0, 59, &mi) || s[16] != ':' ||
		    digits(s + 17, 2, 0, 59, &sec))
			goto bad;
		p = s + 19;
		if (*p == '.') {
			for (i = 0, p++; i < 3 && *p >= '0' && *p <= '9'; i++, p++)
				ms = ms * 10 + (*p - '0');
			if (i == 0)
				goto bad;
			for (; i < 3; i++)
				ms *= 10;
		}
		if (strcmp(p, "Z") != 0)
			goto bad;
	}
	snprintf(out, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", y, mo, d, h, mi, sec, ms);
	return 0;
bad:
	return say(EXIT_USAGE, "invalid --since '%s': YYYY-MM-DD or "
	    "YYYY-MM-DDTHH:MM:SS[.mmm]Z (UTC)", s);
}

/* ---- output ---- */

/* A value as plain text (caller frees): strings as they are, null "-",
 * booleans yes/no, anything else as compact JSON. */
static char *
plain(const cJSON *v)
{
	if (cJSON_IsString(v))
		return strdup(v->valuestring);
	if (v == NULL || cJSON_IsNull(v))
		return strdup("-");
	if (cJSON_IsBool(v))
		return strdup(cJSON_IsTrue(v) ? "yes" : "no");
	return cJSON_PrintUnformatted(v);
}

/* plain(v) on stdout: 0 or EXIT_FAIL. */
static int
print_plain(const cJSON *v)
{
	char *t = plain(v);

	if (t == NULL)
		return say(EXIT_FAIL, "out of memory");
	fputs(t, stdout);
	free(t);
	return 0;
}

/* Print a JSON document on stdout (formatted): 0 or EXIT_FAIL. */
static int
print_json(const cJSON *doc)
{
	char *text = cJSON_Print(doc);

	if (text == NULL)
		return say(EXIT_FAIL, "out of memory");
	puts(text);
	free(text);
	return EXIT_OK;
}

/*
 * One object as aligned "key  value" lines.  Nested objects are flattened
 * to dotted keys (by_event_type.initial); arrays print their items
 * separated by spaces ("-" when empty).
 */
static int
print_object(const cJSON *obj, const char *prefix, int width)
{
	const cJSON *v, *e;
	char key[128];

	cJSON_ArrayForEach(v, obj) {
		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", v->string);
		if (cJSON_IsObject(v)) {
			if (print_object(v, key, width) != 0)
				return EXIT_FAIL;
			continue;
		}
		printf("%-*s  ", width, key);
		if (!cJSON_IsArray(v)) {
			if (print_plain(v) != 0)
				return EXIT_FAIL;
		} else if (v->child == NULL) {
			fputs("-", stdout);
		} else {
			cJSON_ArrayForEach(e, v) {
				if (e != v->child)
					putchar(' ');
				if (print_plain(e) != 0)
					return EXIT_FAIL;
			}
		}
		putchar('\n');
	}
	return EXIT_OK;
}

/* Width of the longest key print_object() will print. */
static int
key_width(const cJSON *obj, int prefix)
{
	const cJSON *v;
	int w = 0, n;

	cJSON_ArrayForEach(v, obj) {
		n = prefix + (int)strlen(v->string);
		if (cJSON_IsObject(v))
			n = key_width(v, n + 1);
		if (n > w)
			w = n;
	}
	return w;
}

/* An object, as JSON with --json, else as aligned lines. */
static int
print_record(const struct ctl *c, const cJSON *obj)
{
	if (c->given & OPT_JSON)
		return print_json(obj);
	return print_object(obj, "", key_width(obj, 0));
}

struct column {
	const char *title;
	const char *key;
};

/* One cell: padded to width and two spaces, or the last one and a newline. */
static void
table_cell(const char *text, int width, int last)
{
	if (last)
		printf("%s\n", text);
	else
		printf("%-*s  ", width, text);
}

/*
 * Rows as aligned columns under a title line, or nothing when there are no
 * rows.  The last column is not padded, so it may hold anything (names).
 */
static int
print_table(const cJSON *rows, const struct column *cols, size_t ncols)
{
	int width[16] = {0};
	const cJSON *row;
	size_t i;
	int n;

	if (cJSON_GetArraySize(rows) == 0 || ncols > 16)
		return EXIT_OK;
	for (i = 0; i < ncols; i++)
		width[i] = (int)strlen(cols[i].title);
	cJSON_ArrayForEach(row, rows) {
		for (i = 0; i < ncols; i++) {
			char *t = plain(cJSON_GetObjectItemCaseSensitive(row, cols[i].key));

			if (t == NULL)
				return say(EXIT_FAIL, "out of memory");
			if ((n = (int)strlen(t)) > width[i])
				width[i] = n;
			free(t);
		}
	}
	for (i = 0; i < ncols; i++)
		table_cell(cols[i].title, width[i], i + 1 == ncols);
	cJSON_ArrayForEach(row, rows) {
		for (i = 0; i < ncols; i++) {
			char *t = plain(cJSON_GetObjectItemCaseSensitive(row, cols[i].key));

			if (t == NULL)
				return say(EXIT_FAIL, "out of memory");
			table_cell(t, width[i], i + 1 == ncols);
			free(t);
		}
	}
	return EXIT_OK;
}

/* Row callback: keep a copy of every row in the array arg. */
static int
collect(const cJSON *row, void *arg)
{
	cJSON *copy = cJSON_Duplicate(row, 1);

	if (copy == NULL || !cJSON_AddItemToArray(arg, copy)) {
		cJSON_Delete(copy);
		return say(STORE_ERROR, "out of memory");
	}
	return 0;
}

/* A list command's rows: with --json one array, else a table. */
static int
print_rows(const struct ctl *c, const cJSON *rows, const struct column *cols,
           size_t ncols)
{
	if (c->given & OPT_JSON)
		return print_json(rows);
	return print_table(rows, cols, ncols);
}

/* ---- commands ---- */

/* store_prepare_fn for init: a stored document prepared again. */
static int
prepare_stored(void *arg, const char *document, struct prepared *out)
{
	cJSON *doc = cJSON_ParseWithOpts(document, NULL, 1);
	int rc = 1;

	(void)arg;
	memset(out, 0, sizeof(*out));
	if (cJSON_IsObject(doc))
		rc = resolve_prepare(doc, out);
	cJSON_Delete(doc);
	return rc;
}

/*
 * Create or upgrade the schema, then prepare every published version again
 * (schema.sql, config_answers): a database from before those tables gets
 * them, and answers follow the built-in texts of this build.
 */
static int
cmd_init(struct ctl *c)
{
	struct store *st = ctl_store(c);
	int rc;

	if (st == NULL)
		return EXIT_FAIL;
	rc = store_init(st, schema_data);
	if (rc == STORE_EXISTS)
		return say(EXIT_FAIL, "database %s is newer than this consentctl; "
		    "left unchanged", c->db ? c->db : store_default_path());
	if (rc == STORE_OK)
		rc = store_config_prepare_live(st, prepare_stored, NULL);
	return rc == STORE_OK ? EXIT_OK : store_failed(rc, "");
}

static int
cmd_site_add(struct ctl *c)
{
	const char *key = c->operands[0];
	const char **hosts = NULL;
	char (*norm)[HOST_MAX + 1] = NULL;
	int free_tier = 1, rc = EXIT_USAGE;
	int64_t cap = -1;
	size_t i;

	if (check_key(key) != 0)
		return EXIT_USAGE;
	if (c->name == NULL)
		return say(EXIT_USAGE, "site add needs --name NAME");
	if (check_name(c->name) != 0 ||
	    (c->tier != NULL && check_tier(c->tier, &free_tier) != 0) ||
	    (c->mau_cap != NULL && check_cap(c->mau_cap, &cap) != 0))
		return EXIT_USAGE;
	if (c->ndomains > 0 && ((norm = calloc(c->ndomains, sizeof(*norm))) == NULL ||
	    (hosts = calloc(c->ndomains, sizeof(*hosts))) == NULL)) {
		rc = say(EXIT_FAIL, "out of memory");
		goto out;
	}
	for (i = 0; i < c->ndomains; i++) {
		if (check_domain(c->domains[i], norm[i]) != 0)
			goto out;
		hosts[i] = norm[i];
	}
	rc = EXIT_FAIL;
	if (ctl_store(c) == NULL)
		goto out;
	rc = store_site_add(c->st, key, c->name, free_tier, cap, hosts, c->ndomains);
	if (rc == STORE_EXISTS)
		rc = say(EXIT_FAIL, "site %s already exists", key);
	else if (rc != STORE_OK)
		rc = store_failed(rc, key);
out:
	free(hosts);
	free(norm);
	return rc;
}

static int
cmd_site_set(struct ctl *c)
{
	const char *key = c->operands[0];
	int free_tier = -1, rc;
	int64_t cap = -1;

	if (check_key(key) != 0)
		return EXIT_USAGE;
	if (c->name == NULL && c->tier == NULL && c->mau_cap == NULL)
		return say(EXIT_USAGE, "site set needs --name, --tier or --mau-cap");
	if ((c->name != NULL && check_name(c->name) != 0) ||
	    (c->tier != NULL && check_tier(c->tier, &free_tier) != 0) ||
	    (c->mau_cap != NULL && check_cap(c->mau_cap, &cap) != 0))
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_site_set(c->st, key, c->name, free_tier, c->mau_cap != NULL, cap);
	return rc == STORE_OK ? EXIT_OK : store_failed(rc, key);
}

static int
pause_site(struct ctl *c, int paused)
{
	const char *key = c->operands[0];
	int rc;

	if (check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_site_pause(c->st, key, paused);
	return rc == STORE_OK ? EXIT_OK : store_failed(rc, key);
}

static int
cmd_site_pause(struct ctl *c)
{
	return pause_site(c, 1);
}

static int
cmd_site_resume(struct ctl *c)
{
	return pause_site(c, 0);
}

static int
cmd_site_list(struct ctl *c)
{
	static const struct column cols[] = {
		{"KEY", "key"}, {"TIER", "tier"}, {"MAU_CAP", "mau_cap"},
		{"PAUSED", "paused"}, {"VERSION", "version"},
		{"CREATED", "created_at"}, {"NAME", "name"},
	};
	cJSON *rows = cJSON_CreateArray();
	int rc = EXIT_FAIL;

	if (rows == NULL)
		return say(EXIT_FAIL, "out of memory");
	if (ctl_store(c) != NULL && store_site_list(c->st, collect, rows) == STORE_OK)
		rc = print_rows(c, rows, cols, sizeof(cols) / sizeof(cols[0]));
	cJSON_Delete(rows);
	return rc;
}

/* A site's record from fn (store_site_show, store_stats), printed. */
static int
show_site(struct ctl *c, int (*fn)(struct store *, const char *, cJSON **))
{
	const char *key = c->operands[0];
	cJSON *rec = NULL;
	int rc;

	if (check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rc = fn(c->st, key, &rec)) != STORE_OK)
		return store_failed(rc, key);
	rc = print_record(c, rec);
	cJSON_Delete(rec);
	return rc;
}

static int
cmd_site_show(struct ctl *c)
{
	return show_site(c, store_site_show);
}

/* domain add prints the host as stored, so the operator sees the result
 * of normalisation. */
static int
cmd_domain_add(struct ctl *c)
{
	const char *key = c->operands[0];
	char host[HOST_MAX + 1];
	int rc;

	if (check_key(key) != 0 || check_domain(c->operands[1], host) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_domain_add(c->st, key, host);
	if (rc == STORE_EXISTS)
		return say(EXIT_FAIL, "domain %s is already registered for site %s", host, key);
	if (rc != STORE_OK)
		return store_failed(rc, key);
	puts(host);
	return EXIT_OK;
}

static int
cmd_domain_remove(struct ctl *c)
{
	const char *key = c->operands[0];
	char host[HOST_MAX + 1];
	struct site site;
	int rc;

	if (check_key(key) != 0 || check_domain(c->operands[1], host) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_domain_remove(c->st, key, host);
	if (rc == STORE_OK)
		return EXIT_OK;
	if (rc != STORE_NOTFOUND)
		return store_failed(rc, key);
	/* Unknown site, or a domain it does not have: say which. */
	if ((rc = store_site_get(c->st, key, &site)) != STORE_OK)
		return store_failed(rc, key);
	store_site_clear(&site);
	return say(EXIT_FAIL, "domain %s is not registered for site %s", host, key);
}

/*
 * Read all of path ("-": stdin), at most CONFIG_FILE_MAX bytes, as a new
 * NUL-terminated string in *out.  0 or EXIT_FAIL (reported).
 */
static int
read_file(const char *path, char **out)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0;
	int rc = EXIT_FAIL;

	*out = NULL;
	if (f == NULL)
		return say(EXIT_FAIL, "cannot open %s: %s", path, strerror(errno));
	if ((buf = malloc(CONFIG_FILE_MAX + 2)) == NULL) {
		say(EXIT_FAIL, "out of memory");
		goto out;
	}
	/* One byte more than allowed tells an oversized file apart. */
	while (n <= CONFIG_FILE_MAX && !feof(f) && !ferror(f))
		n += fread(buf + n, 1, CONFIG_FILE_MAX + 1 - n, f);
	if (ferror(f)) {
		say(EXIT_FAIL, "cannot read %s: %s", path, strerror(errno));
	} else if (n > CONFIG_FILE_MAX) {
		say(EXIT_FAIL, "%s: larger than %d bytes", path, CONFIG_FILE_MAX);
	} else if (memchr(buf, '\0', n) != NULL) {
		say(EXIT_FAIL, "%s: not a JSON document (contains a NUL byte)", path);
	} else {
		buf[n] = '\0';
		*out = buf;
		buf = NULL;
		rc = EXIT_OK;
	}
out:
	free(buf);
	if (f != stdin)
		fclose(f);
	return rc;
}

/*
 * Validate a config document (CONTRACT 4), prepare its answers and publish
 * it as the site's next version, which is printed: config publish and
 * scripts rules --publish.  EXIT_OK or EXIT_FAIL (reported).
 */
static int
publish_json(struct ctl *c, const char *key, const cJSON *json)
{
	struct prepared prep = { 0 };
	char *doc = NULL, err[300];
	int64_t version;
	int rc = EXIT_FAIL;

	if (configdoc_validate(json, err, sizeof(err)) != 0) {
		say(EXIT_FAIL, "invalid config: %s", err);
		goto out;
	}
	if ((doc = cJSON_PrintUnformatted(json)) == NULL ||
	    resolve_prepare(json, &prep) < 0) {
		say(EXIT_FAIL, "out of memory");
		goto out;
	}
	if (ctl_store(c) == NULL)
		goto out;
	if ((rc = store_config_publish(c->st, key, doc, &prep, &version)) != STORE_OK) {
		rc = store_failed(rc, key);
		goto out;
	}
	printf("%lld\n", (long long)version);
	rc = EXIT_OK;
out:
	resolve_prepared_free(&prep);
	free(doc);
	return rc;
}

static int
cmd_config_publish(struct ctl *c)
{
	const char *key = c->operands[0], *path = c->operands[1], *end = NULL;
	char *text = NULL;
	cJSON *json = NULL;
	int rc;

	if (check_key(key) != 0)
		return EXIT_USAGE;
	if ((rc = read_file(path, &text)) != EXIT_OK)
		return rc;
	if ((json = cJSON_ParseWithOpts(text, &end, 1)) == NULL)
		rc = say(EXIT_FAIL, "%s: not valid JSON (at byte %td)",
		    path, end != NULL ? end - text : (ptrdiff_t)0);
	else
		rc = publish_json(c, key, json);
	cJSON_Delete(json);
	free(text);
	return rc;
}

/* The published document, or the built-in defaults, formatted. */
static int
cmd_config_show(struct ctl *c)
{
	const char *key = c->operands[0];
	struct site site;
	cJSON *doc;
	int rc;

	if (check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rc = store_site_get(c->st, key, &site)) != STORE_OK)
		return store_failed(rc, key);
	doc = cJSON_Parse(site.document != NULL ? site.document : defaults_json());
	if (doc == NULL)
		rc = say(EXIT_FAIL, "the stored config of %s is not valid JSON", key);
	else
		rc = print_json(doc);
	cJSON_Delete(doc);
	store_site_clear(&site);
	return rc;
}

static int
cmd_sync_start(struct ctl *c)
{
	const char *key = c->operands[0];
	char id[UUID_LEN + 1];
	int rc;

	if (check_key(key) != 0)
		return EXIT_USAGE;
	if (uuid_v4(id) != 0)
		return say(EXIT_FAIL, "no random numbers for a sync id");
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_sync_start(c->st, key, id);
	if (rc == STORE_EXISTS)  /* 2^-122: a broken random number generator */
		return say(EXIT_FAIL, "sync id %s exists already", id);
	if (rc != STORE_OK)
		return store_failed(rc, key);
	puts(id);
	return EXIT_OK;
}

static int
cmd_sync_show(struct ctl *c)
{
	char id[UUID_LEN + 1];
	cJSON *sync = NULL;
	int rc;

	if (uuid_canonical(c->operands[0], id) != 0)
		return say(EXIT_USAGE, "invalid sync id '%s': a UUID such as "
		    "123e4567-e89b-42d3-a456-426614174000", c->operands[0]);
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_sync_show(c->st, id, &sync);
	if (rc == STORE_NOTFOUND)
		return say(EXIT_FAIL, "unknown sync: %s", id);
	if (rc != STORE_OK)
		return store_failed(rc, "");
	rc = print_record(c, sync);
	cJSON_Delete(sync);
	return rc;
}

/* Columns of consent export --format csv, in order: every field an entry
 * can hold (CONTRACT 3), required ones first; columns added later (gpc)
 * at the end, so that a reader of the older layout finds its columns. */
static const char *const csv_columns[] = {
	"created_at", "anon_id_hash", "categories", "event_type", "event_action",
	"config_version", "published_version", "region", "consent_model",
	"browser", "os", "device_type", "country", "regulation",
	"time_to_action_ms", "interaction", "preferences_opened",
	"banner_load_time_ms", "banner_position", "page_url", "sdk_version",
	"language", "resolved_language", "gpc",
};

/* One CSV field (RFC 4180 2.6, 2.7): quoted when it holds a comma, quote,
 * CR or LF, with quotes doubled. */
static void
csv_field(const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s != '\0'; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/* Row callback of export: a CSV record, CRLF-terminated (RFC 4180 2.1).
 * Absent and null fields are empty; booleans true/false; categories and
 * numbers as JSON text. */
static int
export_csv(const cJSON *row, void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < sizeof(csv_columns) / sizeof(csv_columns[0]); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, csv_columns[i]);
		char *t;

		if (i > 0)
			putchar(',');
		if (v == NULL || cJSON_IsNull(v))
			continue;
		if (cJSON_IsString(v)) {
			csv_field(v->valuestring);
			continue;
		}
		if ((t = cJSON_PrintUnformatted(v)) == NULL)
			return say(STORE_ERROR, "out of memory");
		csv_field(t);
		free(t);
	}
	fputs("\r\n", stdout);
	return 0;
}

/* Row callback of export: one JSON object per line. */
static int
export_jsonl(const cJSON *row, void *arg)
{
	char *t = cJSON_PrintUnformatted(row);

	(void)arg;
	if (t == NULL)
		return say(STORE_ERROR, "out of memory");
	puts(t);
	free(t);
	return 0;
}

static int
cmd_consent_export(struct ctl *c)
{
	const char *key = c->operands[0];
	char since[32];
	int csv = 0, rc;
	size_t i;

	if (check_key(key) != 0 || (c->since != NULL && check_since(c->since, since) != 0))
		return EXIT_USAGE;
	if (c->format != NULL) {
		if (strcmp(c->format, "csv") == 0)
			csv = 1;
		else if (strcmp(c->format, "jsonl") != 0)
			return say(EXIT_USAGE, "invalid format '%s': jsonl or csv", c->format);
	}
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if (csv) {
		for (i = 0; i < sizeof(csv_columns) / sizeof(csv_columns[0]); i++)
			printf("%s%s", i > 0 ? "," : "", csv_columns[i]);
		fputs("\r\n", stdout);
	}
	rc = store_consent_export(c->st, key, c->since != NULL ? since : NULL,
	    csv ? export_csv : export_jsonl, NULL);
	return rc == STORE_OK ? EXIT_OK : store_failed(rc, key);
}

static int
cmd_scripts_list(struct ctl *c)
{
	static const struct column cols[] = {
		{"DOMAIN", "domain"}, {"CATEGORY", "category"}, {"BLOCKED", "blocked"},
		{"SEEN", "seen_count"}, {"FIRST_SEEN", "first_seen"},
		{"LAST_SEEN", "last_seen"},
	};
	const char *key = c->operands[0];
	cJSON *rows;
	int rc;

	if (check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rows = cJSON_CreateArray()) == NULL)
		return say(EXIT_FAIL, "out of memory");
	if ((rc = store_scripts_list(c->st, key, collect, rows)) == STORE_OK)
		rc = print_rows(c, rows, cols, sizeof(cols) / sizeof(cols[0]));
	else
		rc = store_failed(rc, key);
	cJSON_Delete(rows);
	return rc;
}

/* One "pattern<TAB>category" line per rule. */
static void
print_rules(const cJSON *rules)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, rules)
		printf("%s\t%s\n",
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "pattern")),
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "category")));
}

/*
 * The scriptRules the site's recorded script domains call for and its
 * config (published, else the built-in defaults) lacks: scriptrules.h says
 * which.  Rules of a category the config does not have cannot be published:
 * each is named on stderr and left out of every output.  With --publish,
 * the config with those rules appended to scriptRules is published as a
 * new version (checked as config publish checks), and the version printed;
 * with nothing to add, nothing is published, stdout stays empty and one
 * line on stderr says so (exit 0).
 */
static int
cmd_scripts_rules(struct ctl *c)
{
	const char *key = c->operands[0];
	int publish = (c->given & OPT_PUBLISH) != 0, rc;
	cJSON *records = NULL, *doc = NULL, *add = NULL, *unknown = NULL, *rules, *r;
	struct site site;

	if (check_key(key) != 0)
		return EXIT_USAGE;
	if (publish && (c->given & OPT_JSON))
		return say(EXIT_USAGE, "scripts rules takes --json or --publish, not both");
	/* Only --publish writes: open for writing then, so that the read and
	 * the publish see one file. */
	if (publish && store_open(&c->st, c->db, STORE_WRITE) != STORE_OK) {
		c->st = NULL;
		return EXIT_FAIL;
	}
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rc = store_site_get(c->st, key, &site)) != STORE_OK)
		return store_failed(rc, key);
	rc = EXIT_FAIL;
	doc = cJSON_Parse(site.document != NULL ? site.document : defaults_json());
	if (doc == NULL) {
		say(EXIT_FAIL, "the stored config of %s is not valid JSON", key);
		goto out;
	}
	if ((records = cJSON_CreateArray()) == NULL) {
		say(EXIT_FAIL, "out of memory");
		goto out;
	}
	if ((rc = store_scripts_list(c->st, key, collect, records)) != STORE_OK) {
		rc = store_failed(rc, key);
		goto out;
	}
	rc = EXIT_FAIL;
	if (scriptrules_suggest(doc, records, &add, &unknown) != 0)
		goto out;
	cJSON_ArrayForEach(r, unknown) {
		const char *cat = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r,
		    "category"));

		say(0, "%s %s left out: the config of %s has no category %s",
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "pattern")),
		    cat, key, cat);
	}
	if (!publish && (c->given & OPT_JSON)) {
		rc = print_json(add);
		goto out;
	}
	if (!publish) {
		print_rules(add);
		rc = EXIT_OK;
		goto out;
	}
	if (cJSON_GetArraySize(add) == 0) {
		rc = say(EXIT_OK, "no rule to add to the config of %s; nothing published", key);
		goto out;
	}
	rules = cJSON_GetObjectItemCaseSensitive(doc, "scriptRules");
	if (rules == NULL && (rules = cJSON_AddArrayToObject(doc, "scriptRules")) == NULL) {
		say(EXIT_FAIL, "out of memory");
		goto out;
	}
	if (!cJSON_IsArray(rules)) {
		say(EXIT_FAIL, "invalid config: scriptRules must be an array");
		goto out;
	}
	while ((r = cJSON_DetachItemFromArray(add, 0)) != NULL)
		if (!cJSON_AddItemToArray(rules, r)) {
			cJSON_Delete(r);
			say(EXIT_FAIL, "out of memory");
			goto out;
		}
	rc = publish_json(c, key, doc);
out:
	cJSON_Delete(unknown);
	cJSON_Delete(add);
	cJSON_Delete(records);
	cJSON_Delete(doc);
	store_site_clear(&site);
	return rc;
}

static int
cmd_stats(struct ctl *c)
{
	return show_site(c, store_stats);
}

/* CONTRACT 3, in its order. */
static const struct command commands[] = {
	{"init", NULL, 0, 0, STORE_CREATE, cmd_init,
	    "init"},
	{"site", "add", 1, OPT_NAME | OPT_DOMAIN | OPT_TIER | OPT_MAU_CAP, STORE_WRITE,
	    cmd_site_add,
	    "site add KEY --name NAME [--domain HOST]... [--tier free|paid] [--mau-cap N]"},
	{"site", "set", 1, OPT_NAME | OPT_TIER | OPT_MAU_CAP, STORE_WRITE, cmd_site_set,
	    "site set KEY [--name NAME] [--tier free|paid] [--mau-cap N|none]"},
	{"site", "pause", 1, 0, STORE_WRITE, cmd_site_pause,
	    "site pause KEY"},
	{"site", "resume", 1, 0, STORE_WRITE, cmd_site_resume,
	    "site resume KEY"},
	{"site", "list", 0, OPT_JSON, STORE_READ, cmd_site_list,
	    "site list [--json]"},
	{"site", "show", 1, OPT_JSON, STORE_READ, cmd_site_show,
	    "site show KEY [--json]"},
	{"domain", "add", 2, 0, STORE_WRITE, cmd_domain_add,
	    "domain add KEY HOST"},
	{"domain", "remove", 2, 0, STORE_WRITE, cmd_domain_remove,
	    "domain remove KEY HOST"},
	{"config", "publish", 2, 0, STORE_WRITE, cmd_config_publish,
	    "config publish KEY FILE|-"},
	{"config", "show", 1, 0, STORE_READ, cmd_config_show,
	    "config show KEY"},
	{"sync", "start", 1, 0, STORE_WRITE, cmd_sync_start,
	    "sync start KEY"},
	{"sync", "show", 1, OPT_JSON, STORE_READ, cmd_sync_show,
	    "sync show SYNC_ID [--json]"},
	{"consent", "export", 1, OPT_SINCE | OPT_FORMAT, STORE_READ, cmd_consent_export,
	    "consent export KEY [--since ISO8601] [--format jsonl|csv]"},
	{"scripts", "list", 1, OPT_JSON, STORE_READ, cmd_scripts_list,
	    "scripts list KEY [--json]"},
	{"scripts", "rules", 1, OPT_JSON | OPT_PUBLISH, STORE_READ, cmd_scripts_rules,
	    "scripts rules KEY [--json | --publish]"},
	{"stats", NULL, 1, OPT_JSON, STORE_READ, cmd_stats,
	    "stats KEY [--json]"},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void
usage(FILE *f)
{
	size_t i;

	fputs("usage: consentctl [--db PATH] COMMAND [ARGS]\n\ncommands:\n", f);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  consentctl %s\n", commands[i].synopsis);
	fputs("\n"
	    "--db PATH (anywhere on the line) names the database; else $CONSENT_DB,\n"
	    "else the compiled-in default.  Exit status 0 on success, 1 on failure,\n"
	    "2 on a usage error; a failed command changes nothing.\n", f);
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
		for (k = 0; k < sizeof(options) / sizeof(options[0]); k++)
			if (strncmp(a, options[k].name, eq ? (size_t)(eq - a) : strlen(a)) == 0 &&
			    options[k].name[eq ? (size_t)(eq - a) : strlen(a)] == '\0')
				o = &options[k];
		if (o == NULL)
			return say(-1, "unknown option %s (see consentctl --help)", a);
		if (!o->value) {
			if (eq != NULL)
				return say(-1, "option %s takes no value", o->name);
			c->given |= o->bit;
			continue;
		}
		if (eq != NULL)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			return say(-1, "option %s needs a value", o->name);
		if (o->bit == 0 && *val == '\0')  /* SQLite would open a temporary file */
			return say(-1, "option --db needs a path");
		if (o->bit != OPT_DOMAIN && ((o->bit & c->given) ||
		    (o->bit == 0 && c->db != NULL)))
			return say(-1, "option %s given twice", o->name);
		c->given |= o->bit;
		switch (o->bit) {
		case 0: c->db = val; break;
		case OPT_NAME: c->name = val; break;
		case OPT_TIER: c->tier = val; break;
		case OPT_MAU_CAP: c->mau_cap = val; break;
		case OPT_SINCE: c->since = val; break;
		case OPT_FORMAT: c->format = val; break;
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
	int npos, help = 0, words, rc;
	size_t i;

	log_init("consentctl");
	memset(&c, 0, sizeof(c));
	if ((c.domains = calloc((size_t)argc, sizeof(*c.domains))) == NULL)
		return say(EXIT_FAIL, "out of memory");
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
			rc = say(EXIT_USAGE, "no command (see consentctl --help)");
		else
			rc = say(EXIT_USAGE, "unknown command: %s%s%s (see consentctl --help)",
			    argv[0], npos > 1 ? " " : "", npos > 1 ? argv[1] : "");
		goto out;
	}
	words = cmd->word2 != NULL ? 2 : 1;
	for (i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (options[i].bit & c.given & ~cmd->opts) {
			rc = say(EXIT_USAGE, "%s%s%s does not take %s", cmd->word1,
			    words > 1 ? " " : "", words > 1 ? cmd->word2 : "",
			    options[i].name);
			goto out;
		}
	if (npos - words != cmd->nargs) {
		rc = say(EXIT_USAGE, "usage: consentctl %s", cmd->synopsis);
		goto out;
	}
	c.cmd = cmd;
	c.operands = argv + words;
	rc = cmd->run(&c);
	store_close(c.st);
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = say(EXIT_FAIL, "cannot write the output: %s", strerror(errno));
out:
	free(c.domains);
	return rc;
}
