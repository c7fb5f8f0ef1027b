/* test_settings_file.c: settings_parse(), the settings file's parser: values, paths joined to the folder, and every refusal. */
#include <stdlib.h>
#include <string.h>

#include "base/settings_file.h"
#include "unit.h"

static struct settings s;
static char err[200];

static int
parse(const char *text)
{
	return settings_parse(text, strlen(text), "/up/cgi-bin", &s, err, sizeof(err));
}

/* text is refused with an error starting with want, and s is empty. */
static void
refused(const char *text, const char *want, const char *what)
{
	int rc = parse(text);

	CHECK(rc == -1 && strncmp(err, want, strlen(want)) == 0 &&
	    settings_lookup(&s, "CONSENT_DB") == NULL, what);
	if (rc != -1 || strncmp(err, want, strlen(want)) != 0)
		printf("# got %d \"%s\", want \"%s\"\n", rc, err, want);
}

int
main(void)
{
	char big[SETTINGS_FILE_MAX + 2];

	CHECK(parse("") == 0 && settings_lookup(&s, "CONSENT_DB") == NULL, "an empty file sets nothing");
	CHECK(parse("# c\n\n  \t\n   # indented comment\n") == 0, "comments and blank lines");
	CHECK(parse("CONSENT_DB=../data/consent.db\n") == 0, "a relative database path");
	CHECK_STR(settings_lookup(&s, "CONSENT_DB"), "/up/cgi-bin/../data/consent.db",
	    "joined to the file's folder");
	CHECK(parse("CONSENT_DB=/srv/c.db") == 0, "no final line end");
	CHECK_STR(settings_lookup(&s, "CONSENT_DB"), "/srv/c.db", "an absolute path as it is");
	CHECK(parse("CONSENT_DB=host=/run/pg dbname=consent\n") == 0, "a connection string");
	CHECK_STR(settings_lookup(&s, "CONSENT_DB"), "host=/run/pg dbname=consent",
	    "a connection string is no path");
	CHECK(parse("CONSENT_DB=postgresql://u@h/db\n") == 0, "a URI");
	CHECK_STR(settings_lookup(&s, "CONSENT_DB"), "postgresql://u@h/db", "a URI is no path");
	CHECK(parse("  CONSENT_GEOIP_DB =  geo/c.mmdb \r\nCONSENT_DATA_DIR=../data\n"
	    "CONSENT_COUNTRY_HEADER=HTTP_CF_IPCOUNTRY\nCONSENT_MAU_CAP=5000\n"
	    "CONSENT_SYNC=FULL\nCONSENT_BASE_URL=https://e.example/c\n"
	    "CONSENT_FCGI_MAX_REQUESTS=100\n") == 0, "every name");
	CHECK_STR(settings_lookup(&s, "CONSENT_GEOIP_DB"), "/up/cgi-bin/geo/c.mmdb",
	    "blanks and CR dropped, the GeoIP path joined");
	CHECK_STR(settings_lookup(&s, "CONSENT_DATA_DIR"), "/up/cgi-bin/../data", "the data folder joined");
	CHECK_STR(settings_lookup(&s, "CONSENT_COUNTRY_HEADER"), "HTTP_CF_IPCOUNTRY", "a text as it is");
	CHECK_STR(settings_lookup(&s, "CONSENT_BASE_URL"), "https://e.example/c", "a URL is no path");
	CHECK_STR(settings_lookup(&s, "CONSENT_FCGI_MAX_REQUESTS"), "100", "the last name");
	CHECK(settings_lookup(&s, "CONSENT_DB") == NULL, "a name not given is NULL");
	CHECK(settings_lookup(&s, "CONSENT_TEST_NOW") == NULL, "an unknown name is NULL");
	CHECK(parse("CONSENT_BASE_URL=a=b#c\n") == 0 &&
	    strcmp(settings_lookup(&s, "CONSENT_BASE_URL"), "a=b#c") == 0, "'=' and '#' within a value");

	refused("CONSENT_DB=x\nCONSENT_X=1\n", "line 2: unknown setting CONSENT_X", "an unknown name");
	refused("consent_db=x\n", "line 1: unknown setting consent_db", "names are upper case");
	refused("CONSENT_DB\n", "line 1: not NAME=value", "no '='");
	refused("=x\n", "line 1: unknown setting", "no name");
	refused("CONSENT_DB=\n", "line 1: CONSENT_DB has no value", "an empty value");
	refused("CONSENT_DB=  \t\n", "line 1: CONSENT_DB has no value", "a blank value");
	refused("CONSENT_DB='x'\n", "line 1: CONSENT_DB: write the value without quotes", "quotes");
	refused("CONSENT_DB=a\nCONSENT_DB=b\n", "line 2: CONSENT_DB given twice", "twice");
	refused("CONSENT_SYNC=a\tb\n", "line 1: CONSENT_SYNC: a control character", "a tab within");
	refused("CONSENT_SYNC=a\x7f\n", "line 1: CONSENT_SYNC: a control character", "DEL");
	refused("CONSENT_SYNC=a\rb\n", "line 1: CONSENT_SYNC: a control character", "a CR within");
	CHECK(settings_parse("CONSENT_DB=a\0b\n", 15, "/d", &s, err, sizeof(err)) == -1 &&
	    strcmp(err, "line 1: a NUL byte") == 0, "a NUL byte");
	memset(big, '#', sizeof(big));
	big[SETTINGS_LINE_MAX + 1] = '\n';
	CHECK(settings_parse(big, SETTINGS_LINE_MAX + 2, "/d", &s, err, sizeof(err)) == -1 &&
	    strcmp(err, "line 1: longer than 1024 bytes") == 0, "a line over the limit");
	CHECK(settings_parse(big, SETTINGS_LINE_MAX, "/d", &s, err, sizeof(err)) == 0,
	    "a line at the limit");
	for (size_t i = 0; i < sizeof(big); i += 64)
		big[i] = '\n';
	CHECK(settings_parse(big, SETTINGS_FILE_MAX, "/d", &s, err, sizeof(err)) == 0,
	    "a file at the limit");
	CHECK(settings_parse(big, SETTINGS_FILE_MAX + 1, "/d", &s, err, sizeof(err)) == -1 &&
	    strcmp(err, "longer than 4096 bytes") == 0, "a file over the limit");
	CHECK(settings_is_conninfo("dbname=x") && settings_is_conninfo(" host = h") &&
	    !settings_is_conninfo("/srv/a=b/c.db") && !settings_is_conninfo("../data/c.db") &&
	    !settings_is_conninfo("Host=x"), "settings_is_conninfo");

	/* The process's lookup, without a file there: the folder of
	 * SCRIPT_FILENAME, else the working folder; relative defaults. */
	const char *why;
	setenv("SCRIPT_FILENAME", "/nonexistent/up/cgi-bin/config", 1);
	settings_use(NULL, 0);
	CHECK(settings_state(&why) == SETTINGS_NONE && *why == '\0', "no file: SETTINGS_NONE, silently");
	CHECK_STR(settings_path(), "/nonexistent/up/cgi-bin/.htconsent", "beside SCRIPT_FILENAME");
	CHECK_STR(settings_relative("../data/consent.db"), "/nonexistent/up/cgi-bin/../data/consent.db",
	    "a relative default joined to the programs' folder");
	CHECK_STR(settings_relative("/srv/c.db"), "/srv/c.db", "an absolute default as it is");
	CHECK(settings_get("CONSENT_DB") == NULL, "no file: no value");
	unsetenv("SCRIPT_FILENAME");
	settings_use(NULL, 0);
	CHECK_STR(settings_dir(), ".", "no SCRIPT_FILENAME: the working folder");
	settings_use("/nonexistent/x.conf", 1);
	CHECK(settings_state(&why) == SETTINGS_BAD && strcmp(why, "No such file or directory") == 0,
	    "a named file that is missing is a problem");
	CHECK_STR(settings_dir(), "/nonexistent", "a named file's folder");
	UNIT_DONE();
}
