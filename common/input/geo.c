/* geo.c: the visitor's country and subdivision from the CGI environment (CONTRACT 6). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <maxminddb.h>

#include "input/geo.h"
#include "base/io.h"
#include "base/limits.h"
#include "base/log.h"
#include "base/nitems.h"


/* The edge headers trusted by default, in CONTRACT 6 order, each with the
 * header that carries the subdivision when that edge sends one. */
static const struct edge {
	const char *country;
	const char *region;
} edges[] = {
	{ "HTTP_CF_IPCOUNTRY", "HTTP_CF_REGION_CODE" },
	{ "HTTP_CLOUDFRONT_VIEWER_COUNTRY", "HTTP_CLOUDFRONT_VIEWER_COUNTRY_REGION" },
	{ "HTTP_X_VERCEL_IP_COUNTRY", "HTTP_X_VERCEL_IP_COUNTRY_REGION" },
	{ "HTTP_X_COUNTRY_CODE", NULL },
};

/* Country variables set by the web server's own GeoIP module. */
static const char *const server_vars[] = {
	"GEOIP_COUNTRY_CODE",   /* lighttpd mod_maxminddb */
	"MM_COUNTRY_CODE",      /* Apache mod_maxminddb */
};

static int
is_alpha(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int
is_alnum(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

static char
upper(char c)
{
	return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
}

/* The variable's value, or NULL when it is unset or empty. */
static const char *
env_value(const char *name)
{
	const char *v = io_env(name);

	return (v != NULL && v[0] != '\0') ? v : NULL;
}

/*
 * Store s (n bytes, not necessarily NUL-terminated) as the country when it
 * is exactly two ASCII letters; upper-cased.  XX (Cloudflare, CloudFront:
 * unknown) and T1 (Cloudflare: Tor) mean unknown; T1 already fails the
 * letters rule.  Returns 1 when a country was stored, else 0.
 */
static int
set_country(struct geo *g, const char *s, size_t n)
{
	char c0, c1;

	if (n != 2 || !is_alpha(s[0]) || !is_alpha(s[1]))
		return 0;
	c0 = upper(s[0]);
	c1 = upper(s[1]);
	if (c0 == 'X' && c1 == 'X')
		return 0;
	g->country[0] = c0;
	g->country[1] = c1;
	g->country[2] = '\0';
	return 1;
}

/*
 * Store s (n bytes) as the subdivision of g->country: 1 to 3 ASCII letters
 * or digits, upper-cased (ISO 3166-2 codes after the hyphen: CA, ENG, 22).
 * The full form "US-CA" is accepted when its prefix is g->country.  Anything
 * else leaves the subdivision empty.
 */
static void
set_subdivision(struct geo *g, const char *s, size_t n)
{
	size_t i;

	if (n > 3 && s[2] == '-' && upper(s[0]) == g->country[0] &&
	    upper(s[1]) == g->country[1]) {
		s += 3;
		n -= 3;
	}
	if (n < 1 || n > 3)
		return;
	for (i = 0; i < n; i++)
		if (!is_alnum(s[i]))
			return;
	for (i = 0; i < n; i++)
		g->subdivision[i] = upper(s[i]);
	g->subdivision[n] = '\0';
}

/* Whether name is a usable CGI variable name: 1 to GEO_VARNAME_MAX of [A-Z0-9_]. */
static int
valid_varname(const char *name)
{
	size_t i;

	for (i = 0; name[i] != '\0'; i++) {
		if (i >= GEO_VARNAME_MAX)
			return 0;
		if (!((name[i] >= 'A' && name[i] <= 'Z') ||
		    (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return 0;
	}
	return i > 0;
}

/* From a country header's value, its country and (when region names the
 * edge's region header) subdivision.  Returns 1 when a country was found. */
static int
from_header(struct geo *g, const char *value, const char *region)
{
	const char *r;

	if (!set_country(g, value, strlen(value)))
		return 0;
	if (region != NULL && (r = env_value(region)) != NULL)
		set_subdivision(g, r, strlen(r));
	return 1;
}

/*
 * The trusted request header (CONTRACT 2, 6).  CONSENT_COUNTRY_HEADER names
 * the one header trusted, "none" (any case) trusts none; unset or empty
 * means the default list, of which only the first present header is read
 * (a client cannot add a lower-ranked header to override an edge that said
 * XX).  A name that is not [A-Z0-9_]+ is ignored with a line on stderr.
 * Returns 1 when a country was found.
 */
static int
from_trusted_header(struct geo *g)
{
	const char *name = env_value("CONSENT_COUNTRY_HEADER");
	const char *v;
	size_t i;

	if (name != NULL && strcasecmp(name, "none") == 0)
		return 0;
	if (name != NULL && !valid_varname(name)) {
		log_error("CONSENT_COUNTRY_HEADER is not a CGI variable name "
		    "([A-Z0-9_], at most %d characters); using the default "
		    "header list", GEO_VARNAME_MAX);
		name = NULL;
	}
	if (name != NULL) {
		if ((v = env_value(name)) == NULL)
			return 0;
		for (i = 0; i < nitems(edges); i++)
			if (strcmp(name, edges[i].country) == 0)
				return from_header(g, v, edges[i].region);
		return from_header(g, v, NULL);
	}
	for (i = 0; i < nitems(edges); i++)
		if ((v = env_value(edges[i].country)) != NULL)
			return from_header(g, v, edges[i].region);
	return 0;
}

/* The web server's own GeoIP variables, the first valid one.  Returns 1 when
 * a country was found. */
static int
from_server(struct geo *g)
{
	const char *v;
	size_t i;

	for (i = 0; i < nitems(server_vars); i++)
		if ((v = env_value(server_vars[i])) != NULL &&
		    set_country(g, v, strlen(v)))
			return 1;
	return 0;
}

/*
 * The string at path (NULL-terminated list of keys) in entry, into *s and
 * *n (pointing into the mapped database, not NUL-terminated).  Returns 1 when
 * found, 0 when absent or not a string, minus the MMDB error code when the
 * database cannot be read there.
 */
static int
mmdb_string(MMDB_entry_s *entry, const char **s, size_t *n, const char *k0,
            const char *k1, const char *k2)
{
	MMDB_entry_data_s data;
	int rc;

	rc = MMDB_get_value(entry, &data, k0, k1, k2, (const char *)NULL);
	if (rc == MMDB_LOOKUP_PATH_DOES_NOT_MATCH_DATA_ERROR)
		return 0;
	if (rc != MMDB_SUCCESS)
		return -rc;
	if (!data.has_data || data.type != MMDB_DATA_TYPE_UTF8_STRING)
		return 0;
	*s = data.utf8_string;
	*n = data.data_size;
	return 1;
}

/*
 * The database a process that serves many requests keeps open
 * (io_persistent()): opened again when CONSENT_GEOIP_DB names another
 * file, or when the file at that path is another or was rewritten (device,
 * inode, size, modification time), so a replaced database is read at once,
 * as a new CGI process would.
 */
static struct {
	int open;
	MMDB_s db;
	char *path;
	struct stat sb;
} kept;

int
geo_set(struct geo *g, const char *country, const char *subdivision)
{
	memset(g, 0, sizeof(*g));
	if (!set_country(g, country, strlen(country)))
		return 0;
	if (subdivision != NULL)
		set_subdivision(g, subdivision, strlen(subdivision));
	return 1;
}

void
geo_forget(void)
{
	if (kept.open)
		MMDB_close(&kept.db);
	free(kept.path);
	memset(&kept, 0, sizeof(kept));
}

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	    a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/*
 * The database at path, opened into *tmp (a CGI process: the caller
 * closes it after its one lookup, mmdb_done) or kept.  NULL when it cannot
 * be opened (one line on stderr).
 */
static MMDB_s *
mmdb_get(const char *path, MMDB_s *tmp)
{
	struct stat sb;
	int rc;

	if (!io_persistent()) {
		if ((rc = MMDB_open(path, MMDB_MODE_MMAP, tmp)) != MMDB_SUCCESS)
			goto fail;
		return tmp;
	}
	if (stat(path, &sb) != 0)
		memset(&sb, 0, sizeof(sb));     /* MMDB_open says why */
	if (kept.open && strcmp(kept.path, path) == 0 && same_file(&kept.sb, &sb))
		return &kept.db;
	geo_forget();
	if ((kept.path = strdup(path)) == NULL) {
		log_error("out of memory");
		return NULL;
	}
	if ((rc = MMDB_open(path, MMDB_MODE_MMAP, &kept.db)) != MMDB_SUCCESS) {
		geo_forget();
		goto fail;
	}
	kept.open = 1;
	kept.sb = sb;
	return &kept.db;
fail:
	log_error("cannot open CONSENT_GEOIP_DB %.200s: %s", path, MMDB_strerror(rc));
	return NULL;
}

/* After the lookup in db (mmdb_get): a CGI process's database is closed, a
 * kept one stays open unless the lookup found it unreadable (bad). */
static void
mmdb_done(MMDB_s *db, int bad)
{
	if (db != &kept.db)
		MMDB_close(db);
	else if (bad)
		geo_forget();
}

/*
 * Look REMOTE_ADDR (IPv4 or IPv6, numeric only: MMDB_lookup_string never
 * resolves names) up in the database named by CONSENT_GEOIP_DB.  The
 * country is the record's country.iso_code, never registered_country (the
 * ISP's, not the visitor's); the subdivision is subdivisions[0].iso_code of
 * a City database.  An unreadable or corrupt database writes one line to
 * stderr; a bad or unknown address is silently unknown.
 */
static void
from_mmdb(struct geo *g)
{
	const char *path = env_value("CONSENT_GEOIP_DB");
	const char *addr = env_value("REMOTE_ADDR");
	const char *s = NULL;
	size_t n = 0;
	MMDB_s tmp, *db;
	MMDB_lookup_result_s res;
	int rc, err, gai_error, mmdb_error, bad = 0;

	if (path == NULL || addr == NULL || strnlen(addr, GEO_ADDR_MAX + 1) > GEO_ADDR_MAX)
		return;
	if ((db = mmdb_get(path, &tmp)) == NULL)
		return;
	res = MMDB_lookup_string(db, addr, &gai_error, &mmdb_error);
	if (gai_error != 0 || mmdb_error == MMDB_IPV6_LOOKUP_IN_IPV4_DATABASE_ERROR)
		goto out;
	if ((err = mmdb_error) != MMDB_SUCCESS)
		goto bad;
	if (!res.found_entry)
		goto out;
	if ((rc = mmdb_string(&res.entry, &s, &n, "country", "iso_code", NULL)) < 0) {
		err = -rc;
		goto bad;
	}
	if (rc == 0 || !set_country(g, s, n))
		goto out;
	if ((rc = mmdb_string(&res.entry, &s, &n, "subdivisions", "0", "iso_code")) < 0) {
		err = -rc;
		goto bad;
	}
	if (rc == 1)
		set_subdivision(g, s, n);
	goto out;
bad:
	log_error("CONSENT_GEOIP_DB %.200s is unreadable: %s", path,
	    MMDB_strerror(err));
	g->country[0] = '\0';
	g->subdivision[0] = '\0';
	bad = 1;
out:
	mmdb_done(db, bad);
}

/*
 * CONTRACT 6, in order: the trusted header, the server's variables, the
 * database.  A source that gives no valid country (absent, malformed, XX or
 * T1) hands over to the next one.  XX and T1 mean the edge could not place
 * the visitor; an operator who also configured a GeoIP module or
 * CONSENT_GEOIP_DB expects it to be asked then (with the client address
 * restored by mod_remoteip or real_ip it may well know), rather than to be
 * skipped because a header was present.  Only the first present edge header
 * is read, so a client cannot add a lower-ranked one of its own.
 */
void
geo_detect(struct geo *out)
{
	out->country[0] = '\0';
	out->subdivision[0] = '\0';
	if (from_trusted_header(out) || from_server(out))
		return;
	from_mmdb(out);
}
