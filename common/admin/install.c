/* install.c: the dashboard's first run and upgrades, over store_init(); a release's settings file. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "admin/install.h"
#include "admin/publish.h"
#include "base/io.h"
#include "base/log.h"
#include "base/settings_file.h"
#include "store/store_admin.h"

/* What the first run writes: the database in the data/ folder beside the
 * programs' folder, as the release's tree has it (docs/deploy.md). */
#define INSTALL_DB_LINE "CONSENT_DB=../data/consent.db"
#define INSTALL_SETTINGS \
	"# The consent service's settings (docs/deploy.md, \"The settings file\"):\n" \
	"# one NAME=value a line; a relative path is relative to this folder.\n" \
	"# Written by the dashboard's first run.\n" \
	INSTALL_DB_LINE "\n"

int
admin_install(struct store *st, int *upgraded)
{
	int64_t from = 0, to = 0;
	int rc;

	*upgraded = 0;
	if ((rc = store_init(st, &from)) == STORE_EXISTS)
		log_error("the database is newer than this program (schema version %lld)",
		    (long long)from);
	if (rc != STORE_OK)
		return -1;
	if (from > 0 && from < 4) {
		log_error("the database (schema version %lld) needs `consentctl init` first",
		    (long long)from);
		return -1;
	}
	/* A second look tells an upgrade from a current database. */
	if (from > 0 && store_init(st, &to) != STORE_OK)
		return -1;
	if (from > 0 && to == from)
		return 0;
	if (publish_prepare_live(st) != STORE_OK || publish_record_builtin(st) != PUBLISH_OK)
		return -1;
	*upgraded = from > 0;
	return 0;
}

/* The programs' folder as the customer sees it in the upload: its last
 * name ("cgi-bin"), at most 64 bytes of it. */
static void
folder_name(char *out, size_t n)
{
	char cwd[SETTINGS_DIR_MAX];
	const char *d = settings_dir(), *b;

	if (strcmp(d, ".") == 0 && getcwd(cwd, sizeof(cwd)) != NULL)
		d = cwd;
	b = strrchr(d, '/') != NULL ? strrchr(d, '/') + 1 : d;
	snprintf(out, n, "%.64s", *b != '\0' && strcmp(b, ".") != 0 ? b : "cgi-bin");
}

/* The settings file, written whole or not at all: a temporary file in
 * the same folder (mode 0600: mkstemp's), renamed over the name.  0, or
 * -1 with errno. */
static int
write_settings(void)
{
	char tmp[SETTINGS_DIR_MAX + sizeof(SETTINGS_FILE) + 16];
	size_t len = strlen(INSTALL_SETTINGS);
	int fd, saved, ok;

	snprintf(tmp, sizeof(tmp), "%s/%s.XXXXXX", settings_dir(), SETTINGS_FILE);
	if ((fd = mkstemp(tmp)) < 0)
		return -1;
	ok = write(fd, INSTALL_SETTINGS, len) == (ssize_t)len && fsync(fd) == 0;
	if (close(fd) != 0)
		ok = 0;
	if (ok && rename(tmp, settings_path()) == 0)
		return 0;
	saved = errno;
	unlink(tmp);
	errno = saved;
	return -1;
}

static mode_t token_mode = 0600;

mode_t
admin_install_token_mode(void)
{
	return token_mode;
}

int
admin_install_settings(char fix[INSTALL_FIX_MAX])
{
	char data[SETTINGS_DIR_MAX + 16], name[72];
	const char *why;
	struct stat st;
	int owner;

	fix[0] = '\0';
	/* What the first run creates (the database, its -wal and -shm, the
	 * token) is the owner's alone: on a shared host others may read 0644. */
	umask(umask(077) | 077);
	if (io_env("CONSENT_DB") != NULL)
		return 0;
	folder_name(name, sizeof(name));
	if (settings_state(&why) == SETTINGS_BAD) {
		snprintf(fix, INSTALL_FIX_MAX, "The settings file %s/%s cannot be used (%s): "
		    "correct it or delete it, then reload this page.", name, SETTINGS_FILE, why);
		goto bad;
	}
	snprintf(data, sizeof(data), "%s/../data", settings_dir());
	if (stat(data, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	/* suEXEC runs a program as its folder's owner; else the server's user. */
	owner = stat(settings_dir(), &st) == 0 && st.st_uid == geteuid();
	token_mode = owner ? 0600 : 0644;
	if (access(data, W_OK | X_OK) != 0) {
		snprintf(fix, INSTALL_FIX_MAX, "The dashboard cannot write the folder data/ of "
		    "your upload, where the database goes. %s Then reload this page.", owner ?
		    "Set data/ to mode 755 (read, write and execute for its owner) with your FTP "
		    "client." :
		    "The web server runs the programs as another user than yours (the host does "
		    "not use suEXEC): set data/ to mode 777 with your FTP client so that it can "
		    "write there, or ask your host to run CGI programs as your own user.");
		goto bad;
	}
	if (write_settings() != 0) {
		log_error("cannot write %s: %s", settings_path(), strerror(errno));
		snprintf(fix, INSTALL_FIX_MAX, "The dashboard cannot write its settings file into "
		    "the folder %s/ of your upload. Create the file %s/%s there with your FTP "
		    "client, holding the one line \"%s\"%s Then reload this page.", name, name,
		    SETTINGS_FILE, INSTALL_DB_LINE, owner ?
		    " (or set the folder to mode 755: read, write and execute for its owner)." :
		    ".");
		goto bad;
	}
	settings_reload();
	if (settings_state(&why) != SETTINGS_OK) {
		snprintf(fix, INSTALL_FIX_MAX, "The settings file %s/%s the dashboard wrote cannot "
		    "be read (%s).", name, SETTINGS_FILE, why);
		goto bad;
	}
	return 0;
bad:
	log_error("%s", fix);
	return -1;
}

int
admin_install_shown(const char *path, char *out, size_t n)
{
	const char *d = settings_dir();
	size_t dlen = strlen(d);
	int k;

	if (strncmp(path, d, dlen) == 0 && strncmp(path + dlen, "/../", 4) == 0)
		path += dlen + 4;
	k = snprintf(out, n, "%s", path);
	return k >= 0 && (size_t)k < n ? 0 : -1;
}
