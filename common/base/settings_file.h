/* settings_file.h: the settings file beside the programs (.htconsent, ADMIN.md 9), read when the environment lacks a CONSENT_* setting. */
#ifndef CONSENT_SETTINGS_FILE_H
#define CONSENT_SETTINGS_FILE_H

#include <stddef.h>

/*
 * On hosts that run CGI programs as the account's own user (suEXEC),
 * SetEnv never reaches the program: the settings then come from a file
 * beside it, whose name stock Apache refuses to serve (".ht*").  One
 * NAME=value per line, NAME one of the settings below; blank lines and
 * lines starting with '#' are skipped, blanks around the name and the
 * value are dropped, a CR before the line end too.  A relative path in a
 * path setting is relative to the file's folder.  Anything else in the
 * file (an unknown name, a name given twice, no '=', an empty or quoted
 * value, a control character, a line over SETTINGS_LINE_MAX, a file over
 * SETTINGS_FILE_MAX) makes the whole file unused: never half of it.
 */
#define SETTINGS_FILE ".htconsent"
/* A hand-written file of a dozen settings is far under 4 KiB. */
#define SETTINGS_FILE_MAX 4096
/* A line: a path or a connection string with room to spare. */
#define SETTINGS_LINE_MAX 1024
/* A folder the file is in, as SCRIPT_FILENAME or --settings name it. */
#define SETTINGS_DIR_MAX 2048
/* The values, relative paths joined to the folder: each value at most
 * SETTINGS_DIR_MAX + SETTINGS_LINE_MAX, and the file's bytes in all. */
#define SETTINGS_BUF_MAX (4 * (SETTINGS_DIR_MAX + SETTINGS_LINE_MAX))

/* The names a file may set, in settings_file.c's table order. */
enum setting {
	SETTING_DB, SETTING_GEOIP_DB, SETTING_DATA_DIR, SETTING_COUNTRY_HEADER,
	SETTING_MAU_CAP, SETTING_SYNC, SETTING_BASE_URL, SETTING_FCGI_MAX_REQUESTS,
	SETTING_COUNT
};

/* A parsed file: value[i] NULL when the file does not set it, else a
 * string in buf. */
struct settings {
	const char *value[SETTING_COUNT];
	size_t used;
	char buf[SETTINGS_BUF_MAX];
};

/*
 * Parse len bytes of text (a settings file's content, NULs included) of a
 * file in folder dir into s.  Pure: no I/O, no allocation; fuzzable.
 * 0, or -1 with s emptied and err holding the first problem, as
 * "line N: ..." (or "longer than ..." for the whole file).
 */
int settings_parse(const char *text, size_t len, const char *dir, struct settings *s,
    char *err, size_t errlen);

/* The value s sets for a CONSENT_* name, or NULL. */
const char *settings_lookup(const struct settings *s, const char *name);

/* Whether a CONSENT_DB value is a PostgreSQL connection string (a URI or
 * libpq's keyword=value form) rather than a file's path. */
int settings_is_conninfo(const char *value);

/*
 * The process's file: read once, at the first lookup, from
 * dirname($SCRIPT_FILENAME) (the server's, never a client's: io.c asks
 * the process environment) or else the working folder; or from the file
 * settings_use() named.  Its value for name, or NULL (not set, no file, or
 * a file not used: that is one line on stderr when read).
 */
const char *settings_get(const char *name);

/*
 * Name the file before the first lookup (consentctl: --settings, or the
 * working folder's): path, or NULL for the programs' lookup above.
 * required: a missing file is a problem too.  Drops what was read.
 */
void settings_use(const char *path, int required);

/* Read the file again at the next lookup (the installer wrote it). */
void settings_reload(void);

/* What the lookup found: SETTINGS_NONE (no file), SETTINGS_OK, or
 * SETTINGS_BAD with why, without the file's path ("line 2: ...", "Permission
 * denied"; static, "" otherwise).  Says nothing on stderr. */
enum settings_state { SETTINGS_NONE, SETTINGS_OK, SETTINGS_BAD };
enum settings_state settings_state(const char **why);

/* The file's folder: where relative paths start ("." for the working
 * folder).  Static; no trailing '/'. */
const char *settings_dir(void);

/* The file's path (settings_dir() and SETTINGS_FILE, or settings_use()'s). */
const char *settings_path(void);

/* path joined to settings_dir() when relative, for a compiled-in default
 * (make DBPATH=../data/consent.db); static, NULL when too long. */
const char *settings_relative(const char *path);

#endif
