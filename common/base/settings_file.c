/* settings_file.c: the settings file beside the programs: a pure parser, and the process's one reading of it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "base/settings_file.h"

/* enum setting's order.  kind: what a value is. */
enum kind { TEXT, PATH, DB };
static const struct {
	const char *name;
	enum kind kind;
} names[SETTING_COUNT] = {
	[SETTING_DB] = {"CONSENT_DB", DB},
	[SETTING_GEOIP_DB] = {"CONSENT_GEOIP_DB", PATH},
	[SETTING_DATA_DIR] = {"CONSENT_DATA_DIR", PATH},
	[SETTING_COUNTRY_HEADER] = {"CONSENT_COUNTRY_HEADER", TEXT},
	[SETTING_MAU_CAP] = {"CONSENT_MAU_CAP", TEXT},
	[SETTING_SYNC] = {"CONSENT_SYNC", TEXT},
	[SETTING_BASE_URL] = {"CONSENT_BASE_URL", TEXT},
	[SETTING_FCGI_MAX_REQUESTS] = {"CONSENT_FCGI_MAX_REQUESTS", TEXT},
};

int
settings_is_conninfo(const char *value)
{
	const char *p = value;

	if (strncmp(p, "postgresql://", 13) == 0 || strncmp(p, "postgres://", 11) == 0)
		return 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!((*p >= 'a' && *p <= 'z') || *p == '_'))
		return 0;
	while ((*p >= 'a' && *p <= 'z') || *p == '_')
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '=';
}

static int
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* dir "/" v (dir NULL: v alone) into s->buf as one string: the string,
 * or NULL when it does not fit. */
static const char *
keep(struct settings *s, const char *dir, const char *v, size_t vlen)
{
	size_t dlen = dir != NULL ? strlen(dir) + 1 : 0;
	char *at = s->buf + s->used;

	if (dlen + vlen + 1 > sizeof(s->buf) - s->used)
		return NULL;
	if (dir != NULL) {
		memcpy(at, dir, dlen - 1);
		at[dlen - 1] = '/';
	}
	memcpy(at + dlen, v, vlen);
	at[dlen + vlen] = '\0';
	s->used += dlen + vlen + 1;
	return at;
}

/* One line (n bytes, no line end, outer blanks trimmed, not a comment):
 * NAME=value into s.  0, or -1 with why. */
static int
parse_line(struct settings *s, const char *line, size_t n, const char *dir, char *why,
    size_t whylen)
{
	const char *eq = memchr(line, '=', n), *v;
	size_t nlen, vlen, i, k;
	int relative;

	if (eq == NULL) {
		snprintf(why, whylen, "not NAME=value");
		return -1;
	}
	for (nlen = (size_t)(eq - line); nlen > 0 && blank(line[nlen - 1]); nlen--)
		;
	for (v = eq + 1; v < line + n && blank(*v); v++)
		;
	vlen = (size_t)(line + n - v);
	for (k = 0; k < SETTING_COUNT; k++)
		if (strlen(names[k].name) == nlen && memcmp(names[k].name, line, nlen) == 0)
			break;
	if (k == SETTING_COUNT) {
		snprintf(why, whylen, "unknown setting %.*s", (int)(nlen > 64 ? 64 : nlen), line);
		return -1;
	}
	if (s->value[k] != NULL) {
		snprintf(why, whylen, "%s given twice", names[k].name);
		return -1;
	}
	if (vlen == 0) {
		snprintf(why, whylen, "%s has no value", names[k].name);
		return -1;
	}
	if (*v == '"' || *v == '\'') {
		snprintf(why, whylen, "%s: write the value without quotes", names[k].name);
		return -1;
	}
	for (i = 0; i < vlen; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f) {
			snprintf(why, whylen, "%s: a control character in the value", names[k].name);
			return -1;
		}
	relative = names[k].kind != TEXT && *v != '/';
	if (relative && names[k].kind == DB) {
		/* v is not NUL-terminated: test a copy (vlen < SETTINGS_LINE_MAX). */
		char tmp[SETTINGS_LINE_MAX + 1];

		memcpy(tmp, v, vlen);
		tmp[vlen] = '\0';
		relative = !settings_is_conninfo(tmp);
	}
	if ((s->value[k] = keep(s, relative ? dir : NULL, v, vlen)) == NULL) {
		snprintf(why, whylen, "%s: the path is too long", names[k].name);
		return -1;
	}
	return 0;
}

int
settings_parse(const char *text, size_t len, const char *dir, struct settings *s,
    char *err, size_t errlen)
{
	char why[160];
	size_t at = 0, n;
	int line = 0;

	memset(s->value, 0, sizeof(s->value));
	s->used = 0;
	if (len > SETTINGS_FILE_MAX) {
		snprintf(err, errlen, "longer than %d bytes", SETTINGS_FILE_MAX);
		return -1;
	}
	while (at < len) {
		const char *p = text + at, *end = memchr(p, '\n', len - at);

		n = end != NULL ? (size_t)(end - p) : len - at;
		at += n + 1;
		line++;
		if (n > SETTINGS_LINE_MAX) {
			snprintf(why, sizeof(why), "longer than %d bytes", SETTINGS_LINE_MAX);
			goto bad;
		}
		if (memchr(p, '\0', n) != NULL) {
			snprintf(why, sizeof(why), "a NUL byte");
			goto bad;
		}
		if (n > 0 && p[n - 1] == '\r')
			n--;
		while (n > 0 && blank(*p)) {
			p++;
			n--;
		}
		while (n > 0 && blank(p[n - 1]))
			n--;
		if (n == 0 || *p == '#')
			continue;
		if (parse_line(s, p, n, dir, why, sizeof(why)) != 0)
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen, "line %d: %s", line, why);
	memset(s->value, 0, sizeof(s->value));
	s->used = 0;
	return -1;
}

const char *
settings_lookup(const struct settings *s, const char *name)
{
	size_t k;

	for (k = 0; k < SETTING_COUNT; k++)
		if (strcmp(names[k].name, name) == 0)
			return s->value[k];
	return NULL;
}

/* ---- the process's file ---- */

static struct settings file;
static enum settings_state state;
static int loaded, explicit, required, said, toolong;
static char dir[SETTINGS_DIR_MAX + 1] = ".", path[SETTINGS_DIR_MAX + sizeof(SETTINGS_FILE) + 1];
static char why[256];

void
settings_use(const char *p, int req)
{
	const char *slash = p != NULL ? strrchr(p, '/') : NULL;
	size_t n = slash == NULL ? 0 : slash == p ? 1 : (size_t)(slash - p);

	explicit = p != NULL;
	required = req;
	loaded = 0;
	if (p == NULL)
		return;
	toolong = n > SETTINGS_DIR_MAX || strlen(p) >= sizeof(path);
	snprintf(path, sizeof(path), "%s", p);
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(n < SETTINGS_DIR_MAX ? n : SETTINGS_DIR_MAX), p);
}

void
settings_reload(void)
{
	loaded = 0;
}

/* Where the file is: settings_use()'s, else beside $SCRIPT_FILENAME (the
 * process environment: the server's), else the working folder.  0, or -1
 * when the name is too long for dir (why set). */
static int
locate(void)
{
	const char *sf, *slash;
	size_t n;

	if (explicit && toolong) {
		snprintf(why, sizeof(why), "its name is longer than %d bytes", SETTINGS_DIR_MAX);
		return -1;
	}
	if (explicit)
		return 0;
	sf = getenv("SCRIPT_FILENAME");
	slash = sf != NULL ? strrchr(sf, '/') : NULL;
	n = slash == NULL ? 1 : slash == sf ? 1 : (size_t)(slash - sf);
	if (n > SETTINGS_DIR_MAX) {
		snprintf(why, sizeof(why), "SCRIPT_FILENAME's folder is longer than %d bytes",
		    SETTINGS_DIR_MAX);
		return -1;
	}
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)n, sf);
	snprintf(path, sizeof(path), "%s/%s", dir, SETTINGS_FILE);
	return 0;
}

/* Read and parse the file once: one open() when it is missing. */
static void
load(void)
{
	char text[SETTINGS_FILE_MAX + 1];
	struct stat st;
	ssize_t got;
	size_t len = 0;
	int fd;

	loaded = 1;
	state = SETTINGS_BAD;
	why[0] = '\0';
	memset(file.value, 0, sizeof(file.value));
	if (locate() != 0)
		goto bad;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
		if (errno == ENOENT && !required) {
			state = SETTINGS_NONE;
			return;
		}
		snprintf(why, sizeof(why), "%s", strerror(errno));
		goto bad;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, sizeof(why), "not a regular file");
		close(fd);
		goto bad;
	}
	do {
		got = read(fd, text + len, sizeof(text) - len);
		if (got > 0)
			len += (size_t)got;
	} while ((got > 0 && len < sizeof(text)) || (got < 0 && errno == EINTR));
	if (got < 0) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
		close(fd);
		goto bad;
	}
	close(fd);
	if (settings_parse(text, len, dir, &file, why, sizeof(why)) != 0)
		goto bad;
	state = SETTINGS_OK;
	return;
bad:
	said = 0;
}

const char *
settings_get(const char *name)
{
	if (!loaded)
		load();
	if (state == SETTINGS_BAD && !said) {
		said = 1;
		log_error("the settings file is not used, the compiled-in settings are: %s: %s", path,
		    why);
	}
	return state == SETTINGS_OK ? settings_lookup(&file, name) : NULL;
}

enum settings_state
settings_state(const char **reason)
{
	if (!loaded)
		load();
	if (reason != NULL)
		*reason = state == SETTINGS_BAD ? why : "";
	return state;
}

const char *
settings_dir(void)
{
	if (!loaded)
		load();
	return dir;
}

const char *
settings_path(void)
{
	if (!loaded)
		load();
	return path;
}

const char *
settings_relative(const char *p)
{
	static char out[SETTINGS_DIR_MAX + SETTINGS_LINE_MAX + 2];
	int n;

	if (p[0] == '/')
		return p;
	n = snprintf(out, sizeof(out), "%s/%s", settings_dir(), p);
	return n >= 0 && (size_t)n < sizeof(out) ? out : NULL;
}
