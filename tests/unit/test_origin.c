/* test_origin.c: origin_host(), origin_matches() and origin_normalise_domain() (CONTRACT 3, 7). */
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "input/origin.h"
#include "unit.h"

static char host[HOST_MAX + 1];

/* The host origin_host() gives, or "(refused)". */
static const char *
oh(const char *origin)
{
	if (origin_host(origin, host) != 0)
		return host[0] == '\0' ? "(refused)" : "(refused, host not cleared)";
	return host;
}

/* The domain origin_normalise_domain() gives, or "(refused)". */
static const char *
nd(const char *in)
{
	if (origin_normalise_domain(in, host) != 0)
		return host[0] == '\0' ? "(refused)" : "(refused, out not cleared)";
	return host;
}

static void
test_good(void)
{
	CHECK_STR(oh("https://example.com"), "example.com", "https");
	CHECK_STR(oh("http://example.com"), "example.com", "http");
	CHECK_STR(oh("https://shop.example.com:8443"), "shop.example.com", "with port");
	CHECK_STR(oh("https://example.com:443"), "example.com", "default port");
	CHECK_STR(oh("http://localhost:3000"), "localhost", "localhost with port");
	CHECK_STR(oh("http://a.com:1"), "a.com", "port 1");
	CHECK_STR(oh("http://a.com:65535"), "a.com", "port 65535");
	CHECK_STR(oh("HTTPS://WWW.Example.COM"), "www.example.com", "upper-case scheme and host");
	CHECK_STR(oh("HtTp://Example.com"), "example.com", "mixed-case scheme");
	CHECK_STR(oh("http://127.0.0.1:8080"), "127.0.0.1", "IPv4 with port");
	CHECK_STR(oh("http://10.0.0.255"), "10.0.0.255", "IPv4");
	CHECK_STR(oh("http://[::1]:8080"), "[::1]", "IPv6 loopback with port");
	CHECK_STR(oh("https://[2001:DB8::1]"), "[2001:db8::1]", "IPv6 lower-cased");
	CHECK_STR(oh("https://[2001:db8:0:0:0:0:0:1]"), "[2001:db8::1]", "IPv6 canonical form");
	CHECK_STR(oh("https://xn--bcher-kva.example"), "xn--bcher-kva.example", "punycode IDN");
	CHECK_STR(oh("https://my-site.co.uk"), "my-site.co.uk", "hyphen");
	CHECK_STR(oh("https://example.com."), "example.com", "one trailing dot dropped");
	CHECK_STR(oh("https://a1.b2"), "a1.b2", "labels ending in digits");
}

static void
test_bad(void)
{
	char big[ORIGIN_MAX + 64];
	size_t i;

	CHECK_STR(oh(NULL), "(refused)", "NULL");
	CHECK_STR(oh(""), "(refused)", "empty");
	CHECK_STR(oh("null"), "(refused)", "null");
	CHECK_STR(oh("NULL"), "(refused)", "NULL string");
	CHECK_STR(oh("https://"), "(refused)", "no host");
	CHECK_STR(oh("https:// example.com"), "(refused)", "leading space in host");
	CHECK_STR(oh(" https://example.com"), "(refused)", "leading space");
	CHECK_STR(oh("https://example.com "), "(refused)", "trailing space");
	CHECK_STR(oh("example.com"), "(refused)", "no scheme");
	CHECK_STR(oh("//example.com"), "(refused)", "scheme-relative");
	CHECK_STR(oh("ftp://example.com"), "(refused)", "ftp");
	CHECK_STR(oh("file://"), "(refused)", "file");
	CHECK_STR(oh("chrome-extension://abcdef"), "(refused)", "extension origin");
	CHECK_STR(oh("https:/example.com"), "(refused)", "one slash");
	CHECK_STR(oh("https:example.com"), "(refused)", "no slashes");
	CHECK_STR(oh("https://example.com/"), "(refused)", "path /");
	CHECK_STR(oh("https://example.com/x"), "(refused)", "path");
	CHECK_STR(oh("https://example.com?x=1"), "(refused)", "query");
	CHECK_STR(oh("https://example.com#x"), "(refused)", "fragment");
	CHECK_STR(oh("https://user@example.com"), "(refused)", "userinfo");
	CHECK_STR(oh("https://user:pw@example.com"), "(refused)", "userinfo with password");
	CHECK_STR(oh("https://example.com@evil.net"), "(refused)", "userinfo look-alike");
	CHECK_STR(oh("https://exa%6dple.com"), "(refused)", "percent-escape");
	CHECK_STR(oh("https://exam_ple.com"), "(refused)", "underscore");
	CHECK_STR(oh("https://*.example.com"), "(refused)", "wildcard");
	CHECK_STR(oh("https://example.com\\x"), "(refused)", "backslash");
	CHECK_STR(oh("https://example.com:"), "(refused)", "empty port");
	CHECK_STR(oh("https://example.com:0"), "(refused)", "port 0");
	CHECK_STR(oh("https://example.com:65536"), "(refused)", "port 65536");
	CHECK_STR(oh("https://example.com:99999999999"), "(refused)", "port 99999999999");
	CHECK_STR(oh("https://example.com:080"), "(refused)", "port with leading zero");
	CHECK_STR(oh("https://example.com:+80"), "(refused)", "port with +");
	CHECK_STR(oh("https://example.com:-80"), "(refused)", "port with -");
	CHECK_STR(oh("https://example.com:80:80"), "(refused)", "two ports");
	CHECK_STR(oh("https://example.com:8a"), "(refused)", "port with a letter");
	CHECK_STR(oh("https://a.com\r\nSet-Cookie: x"), "(refused)", "CR/LF injection");
	CHECK_STR(oh("https://a.com\n"), "(refused)", "trailing LF");
	CHECK_STR(oh("https://a.com\t"), "(refused)", "trailing tab");
	CHECK_STR(oh("https://a.com\x7f"), "(refused)", "DEL");
	CHECK_STR(oh("https://b\xc3\xbc" "cher.example"), "(refused)", "UTF-8 IDN");
	CHECK_STR(oh("https://\xff.com"), "(refused)", "byte 0xff");
	CHECK_STR(oh("https://example.com.."), "(refused)", "two trailing dots");
	CHECK_STR(oh("https://."), "(refused)", "only a dot");
	CHECK_STR(oh("https://.example.com"), "(refused)", "leading dot");
	CHECK_STR(oh("https://a..com"), "(refused)", "empty label");
	CHECK_STR(oh("http://1.2.3"), "(refused)", "three-part number");
	CHECK_STR(oh("http://1.2.3.4.5"), "(refused)", "five-part number");
	CHECK_STR(oh("http://256.1.1.1"), "(refused)", "IPv4 part over 255");
	CHECK_STR(oh("http://01.2.3.4"), "(refused)", "IPv4 leading zero");
	CHECK_STR(oh("http://example.123"), "(refused)", "numeric last label");
	CHECK_STR(oh("http://[::1"), "(refused)", "unclosed bracket");
	CHECK_STR(oh("http://::1"), "(refused)", "IPv6 without brackets");
	CHECK_STR(oh("http://[]"), "(refused)", "empty brackets");
	CHECK_STR(oh("http://[::g]"), "(refused)", "IPv6 bad digit");
	CHECK_STR(oh("http://[1:2:3:4:5:6:7:8:9]"), "(refused)", "IPv6 nine groups");
	CHECK_STR(oh("http://[fe80::1%25eth0]"), "(refused)", "IPv6 zone");
	CHECK_STR(oh("http://[::1]x"), "(refused)", "junk after IPv6");
	CHECK_STR(oh("http://[::1]:"), "(refused)", "IPv6 empty port");
	CHECK_STR(oh("http://a[::1]"), "(refused)", "bracket inside a name");

	/* A 64-character label, and names over HOST_MAX. */
	memcpy(big, "https://", 8);
	memset(big + 8, 'a', 64);
	memcpy(big + 72, ".com", 5);
	CHECK_STR(oh(big), "(refused)", "64-character label");
	memcpy(big + 71, ".com", 5);
	CHECK(origin_host(big, host) == 0 && strlen(host) == 63 + 4, "63-character label");
	/* 254 characters of host: 127 labels "a." minus the final dot. */
	for (i = 0; i < 127; i++)
		memcpy(big + 8 + 2 * i, "a.", 2);
	big[8 + 253] = 'a';
	big[8 + 254] = '\0';
	CHECK_STR(oh(big), "(refused)", "254-character host");
	big[8 + 253] = '\0';
	CHECK(origin_host(big, host) == 0 && strlen(host) == 253, "253-character host");
	/* Over ORIGIN_MAX, NUL-free up to the end of the buffer's bound. */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "https://", 8);
	CHECK_STR(oh(big), "(refused)", "overlong origin");
	big[ORIGIN_MAX] = '\0';
	CHECK_STR(oh(big), "(refused)", "ORIGIN_MAX-long origin with an overlong host");
}

static void
test_matches(void)
{
	CHECK(origin_matches("example.com", "example.com") == 1, "equal");
	CHECK(origin_matches("shop.example.com", "example.com") == 1, "subdomain");
	CHECK(origin_matches("a.b.example.com", "example.com") == 1, "deep subdomain");
	CHECK(origin_matches("evilexample.com", "example.com") == 0, "evilexample.com");
	CHECK(origin_matches("example.com.evil.net", "example.com") == 0, "example.com.evil.net");
	CHECK(origin_matches("example.com", "shop.example.com") == 0, "parent of the domain");
	CHECK(origin_matches("xample.com", "example.com") == 0, "shorter");
	CHECK(origin_matches(".example.com", "example.com") == 1, "empty first label (never from origin_host)");
	CHECK(origin_matches("example.com", "") == 0, "empty domain");
	CHECK(origin_matches("", "example.com") == 0, "empty host");
	CHECK(origin_matches(NULL, "example.com") == 0, "NULL host");
	CHECK(origin_matches("example.com", NULL) == 0, "NULL domain");
	CHECK(origin_matches("Shop.Example.com", "example.COM") == 1, "case-insensitive");
	CHECK(origin_matches("127.0.0.1", "127.0.0.1") == 1, "IPv4 equal");
	CHECK(origin_matches("1.2.3.4", "2.3.4") == 0, "IPv4 is not a subdomain");
	CHECK(origin_matches("10.0.0.1", "0.0.1") == 0, "IPv4 suffix");
	CHECK(origin_matches("[::1]", "[::1]") == 1, "IPv6 equal");
	CHECK(origin_matches("[2001:db8::1]", "1]") == 0, "IPv6 suffix");
	CHECK(origin_matches("localhost", "localhost") == 1, "localhost");

	/* End to end, as an endpoint uses them. */
	CHECK(origin_host("https://example.com.", host) == 0 &&
	    origin_matches(host, "example.com") == 1, "example.com. matches example.com");
	CHECK(origin_host("https://shop.example.com.:8443", host) == 0 &&
	    origin_matches(host, "example.com") == 1, "subdomain with dot and port");
	CHECK(origin_host("https://example.com.evil.net", host) == 0 &&
	    origin_matches(host, "example.com") == 0, "example.com.evil.net end to end");
	CHECK(origin_host("https://EvilExample.com", host) == 0 &&
	    origin_matches(host, "example.com") == 0, "EvilExample.com end to end");
}

static void
test_normalise(void)
{
	char big[600];

	CHECK_STR(nd("https://WWW.Example.com:443/x"), "www.example.com", "CONTRACT 3 example");
	CHECK_STR(nd("example.com"), "example.com", "bare host");
	CHECK_STR(nd("Example.COM"), "example.com", "lower-cased");
	CHECK_STR(nd("example.com:8080"), "example.com", "host:port");
	CHECK_STR(nd("example.com:"), "example.com", "empty port");
	CHECK_STR(nd("example.com."), "example.com", "trailing dot");
	CHECK_STR(nd("http://example.com"), "example.com", "http");
	CHECK_STR(nd("HTTPS://example.com/"), "example.com", "upper-case scheme, path /");
	CHECK_STR(nd("https://example.com?q=1"), "example.com", "query");
	CHECK_STR(nd("https://example.com#top"), "example.com", "fragment");
	CHECK_STR(nd("https://example.com/a@b"), "example.com", "@ in the path");
	CHECK_STR(nd("https://user:pw@Example.com:8443/p?q#f"), "example.com", "everything stripped");
	CHECK_STR(nd("user@example.com"), "example.com", "userinfo without scheme");
	CHECK_STR(nd("//example.com/x"), "example.com", "scheme-relative");
	CHECK_STR(nd("example.com/path"), "example.com", "host and path");
	CHECK_STR(nd("  example.com \t"), "example.com", "surrounding whitespace");
	CHECK_STR(nd("localhost"), "localhost", "localhost");
	CHECK_STR(nd("http://localhost:3000"), "localhost", "localhost URL");
	CHECK_STR(nd("127.0.0.1:8080"), "127.0.0.1", "IPv4 with port");
	CHECK_STR(nd("[::1]"), "[::1]", "IPv6 keeps brackets");
	CHECK_STR(nd("http://[2001:DB8:0::1]:8080/"), "[2001:db8::1]", "IPv6 URL canonical");
	CHECK_STR(nd("https://evil.com\\@example.com"), "evil.com", "backslash ends the host as in browsers");
	CHECK_STR(nd("xn--bcher-kva.example"), "xn--bcher-kva.example", "punycode");

	CHECK_STR(nd(NULL), "(refused)", "NULL");
	CHECK_STR(nd(""), "(refused)", "empty");
	CHECK_STR(nd("   "), "(refused)", "only spaces");
	CHECK_STR(nd("https://"), "(refused)", "scheme only");
	CHECK_STR(nd("https:///x"), "(refused)", "no host");
	CHECK_STR(nd("user@"), "(refused)", "userinfo only");
	CHECK_STR(nd("."), "(refused)", "only a dot");
	CHECK_STR(nd("example.com.."), "(refused)", "two trailing dots");
	CHECK_STR(nd("ftp://example.com"), "(refused)", "ftp");
	CHECK_STR(nd("javascript://example.com"), "(refused)", "javascript");
	CHECK_STR(nd("example.com:abc"), "(refused)", "bad port");
	CHECK_STR(nd("example.com:0"), "(refused)", "port 0");
	CHECK_STR(nd("example.com:65536"), "(refused)", "port 65536");
	CHECK_STR(nd("exa mple.com"), "(refused)", "inner space");
	CHECK_STR(nd("exa%6dple.com"), "(refused)", "percent-escape");
	CHECK_STR(nd("*.example.com"), "(refused)", "wildcard");
	CHECK_STR(nd("b\xc3\xbc" "cher.de"), "(refused)", "UTF-8 IDN");
	CHECK_STR(nd("example.com\r\n"), "(refused)", "CR/LF");
	CHECK_STR(nd("example.123"), "(refused)", "numeric last label");
	CHECK_STR(nd("[::1"), "(refused)", "unclosed bracket");
	CHECK_STR(nd("null"), "null", "null is a (single-label) host name here");

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK_STR(nd(big), "(refused)", "overlong host");
	memcpy(big, "https://example.com/", 20);
	CHECK_STR(nd(big), "example.com", "long path is fine");
}

int
main(void)
{
	test_good();
	test_bad();
	test_matches();
	test_normalise();
	UNIT_DONE();
}
