/* origin.c: Origin header parsing (RFC 6454) and registered-domain matching (CONTRACT 7). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>

#include "base/limits.h"
#include "input/origin.h"


static int
ascii_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_hostch(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    is_digit(c) || c == '-' || c == '.';
}

/* Whether s starts with the lower-case ASCII prefix p, without regard to case. */
static int
has_prefix(const char *s, const char *p)
{
	for (; *p != '\0'; s++, p++)
		if (ascii_lower((unsigned char)*s) != *p)
			return 0;
	return 1;
}

/*
 * Whether s[0..len) is an IPv4 dotted quad as a browser serialises it: four
 * decimal parts 0-255 without leading zeros.
 */
static int
is_ipv4(const char *s, size_t len)
{
	size_t i = 0;
	int part, digits, parts;

	for (parts = 0; parts < 4; parts++) {
		if (parts > 0 && (i >= len || s[i++] != '.'))
			return 0;
		for (part = 0, digits = 0; i < len && is_digit((unsigned char)s[i]); i++) {
			if (digits++ > 0 && part == 0)
				return 0;
			part = part * 10 + (s[i] - '0');
			if (part > 255)
				return 0;
		}
		if (digits == 0)
			return 0;
	}
	return i == len;
}

/*
 * Validate the host s[0..len) and write it lower-cased, NUL-terminated, to
 * out.  A host is "[" IPv6 "]" (written in inet_ntop's canonical form, so
 * "[::0:1]" and "[::1]" compare equal), an IPv4 dotted quad, or a DNS name
 * of labels of 1-63 characters of A-Za-z0-9-, at most HOST_MAX in all.  One
 * trailing dot is dropped: "example.com." names the same host as
 * "example.com".  A name whose last label is all digits must be a dotted
 * quad (a browser parses it as IPv4).  Returns 0 or -1.
 */
static int
parse_host(const char *s, size_t len, int underscore_ok, char out[HOST_MAX + 1])
{
	size_t i, label = 0;
	int numeric = 1;

	if (len > 0 && s[0] == '[') {
		char text[IPV6_TEXT_MAX + 1];
		unsigned char addr[sizeof(struct in6_addr)];

		if (len < 3 || s[len - 1] != ']' || len - 2 > IPV6_TEXT_MAX)
			return -1;
		for (i = 1; i < len - 1; i++) {
			int c = (unsigned char)s[i];

			if (!is_digit(c) && !(ascii_lower(c) >= 'a' &&
			    ascii_lower(c) <= 'f') && c != ':' && c != '.')
				return -1;
		}
		memcpy(text, s + 1, len - 2);
		text[len - 2] = '\0';
		if (inet_pton(AF_INET6, text, addr) != 1 ||
		    inet_ntop(AF_INET6, addr, text, sizeof(text)) == NULL)
			return -1;
		len = strlen(text);
		out[0] = '[';
		memcpy(out + 1, text, len);
		memcpy(out + 1 + len, "]", 2);
		return 0;
	}
	if (len > 1 && s[len - 1] == '.')
		len--;
	if (len == 0 || len > HOST_MAX)
		return -1;
	for (i = 0; i < len; i++) {
		int c = (unsigned char)s[i];

		if (!is_hostch(c) && !(underscore_ok && c == '_'))
			return -1;
		out[i] = (char)ascii_lower(c);
		if (c == '.') {
			if (label == 0)
				return -1;
			label = 0;
			numeric = 1;
		} else if (++label > LABEL_MAX)
			return -1;
		else if (!is_digit(c))
			numeric = 0;
	}
	out[len] = '\0';
	if (label == 0 || (numeric && !is_ipv4(s, len)))
		return -1;
	return 0;
}

/*
 * Parse ":port" at s[0..len) where len counts the colon.  empty_ok allows
 * a bare ":".  Returns 0 for 1-65535 written without sign or leading zero,
 * else -1.
 */
static int
parse_port(const char *s, size_t len, int empty_ok)
{
	size_t i;
	long port = 0;

	if (len == 0 || s[0] != ':')
		return -1;
	if (len == 1)
		return empty_ok ? 0 : -1;
	if (s[1] == '0' || len - 1 > 5)
		return -1;
	for (i = 1; i < len; i++) {
		if (!is_digit((unsigned char)s[i]))
			return -1;
		port = port * 10 + (s[i] - '0');
	}
	return port >= 1 && port <= 65535 ? 0 : -1;
}

/*
 * Split the authority s[0..len) into host and port and parse both; the
 * host ends at the first ':' after any "[...]".  Returns 0 or -1.
 */
static int
parse_hostport(const char *s, size_t len, int empty_port_ok, int underscore_ok,
               char out[HOST_MAX + 1])
{
	size_t h = 0;

	if (len > 0 && s[0] == '[') {
		while (h < len && s[h] != ']')
			h++;
		if (h < len)
			h++;
	} else
		while (h < len && s[h] != ':')
			h++;
	if (h < len && parse_port(s + h, len - h, empty_port_ok) != 0)
		return -1;
	return parse_host(s, h, underscore_ok, out);
}

/*
 * RFC 6454 6.2 serialisation: scheme "://" host [":" port] and nothing more.
 * The scheme is http or https in any case.  Input longer than ORIGIN_MAX,
 * and any byte outside the host, port and scheme characters (space, CR, LF,
 * "%", "@", "/", "?", "#", non-ASCII: browsers send IDNs as punycode), is
 * refused.  host is "" whenever -1 is returned.
 */
int
origin_host(const char *origin, char host[HOST_MAX + 1])
{
	const char *p;
	size_t len, i;

	host[0] = '\0';
	if (origin == NULL)
		return -1;
	len = strnlen(origin, ORIGIN_MAX + 1);
	if (len > ORIGIN_MAX)
		return -1;
	if (has_prefix(origin, "https://"))
		p = origin + 8;
	else if (has_prefix(origin, "http://"))
		p = origin + 7;
	else
		return -1;
	len -= (size_t)(p - origin);
	for (i = 0; i < len; i++)
		if (!is_hostch((unsigned char)p[i]) && p[i] != ':' &&
		    p[i] != '[' && p[i] != ']')
			return -1;
	if (parse_hostport(p, len, 0, 0, host) != 0) {
		host[0] = '\0';
		return -1;
	}
	return 0;
}

/*
 * Whether a host belongs to a registered domain: equal, or ending with "."
 * + domain, without regard to ASCII case.  IP literals match only when
 * equal (1.2.3.4 is not "under" 2.3.4).  NULL or empty never matches.
 */
int
origin_matches(const char *host, const char *domain)
{
	size_t hl, dl, i;
	const char *tail;

	if (host == NULL || domain == NULL || domain[0] == '\0' ||
	    host[0] == '\0')
		return 0;
	hl = strlen(host);
	dl = strlen(domain);
	if (hl < dl)
		return 0;
	tail = host + hl - dl;
	for (i = 0; i < dl; i++)
		if (ascii_lower((unsigned char)tail[i]) !=
		    ascii_lower((unsigned char)domain[i]))
			return 0;
	if (hl == dl)
		return 1;
	if (tail[-1] != '.' || host[0] == '[' || is_digit((unsigned char)host[hl - 1]))
		return 0;
	return 1;
}

/* The first byte of s that ends a URL authority (WHATWG: "\\" is "/" in http). */
static const char *
authority_end(const char *s)
{
	while (*s != '\0' && *s != '/' && *s != '\\' && *s != '?' && *s != '#')
		s++;
	return s;
}

/*
 * CONTRACT 3 "domain add": reduce what an operator types to the host it
 * names.  Accepts a bare host, host:port, or an http/https URL (any case,
 * also "//host"); drops userinfo, port, path, query, fragment and one
 * trailing dot; lower-cases.  Surrounding spaces and tabs are ignored.
 * Another scheme, an invalid port, or a host that parse_host refuses
 * (empty, "%", "*", non-ASCII: type IDNs as punycode) is -1, with out "".
 */
int
origin_normalise_domain(const char *in, char out[HOST_MAX + 1])
{
	const char *p, *end, *at;
	size_t len;

	out[0] = '\0';
	if (in == NULL)
		return -1;
	while (*in == ' ' || *in == '\t')
		in++;
	p = in;
	end = authority_end(p);
	if (*end == '/' && end > p && end[-1] == ':') {
		/* "scheme:" followed by a path: only http and https. */
		if (has_prefix(p, "https://") && end == p + 6)
			p += 8;
		else if (has_prefix(p, "http://") && end == p + 5)
			p += 7;
		else
			return -1;
	} else if (p[0] == '/' && p[1] == '/')
		p += 2;
	end = authority_end(p);
	if (*end == '\0')
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
	for (at = end; at > p && at[-1] != '@'; at--)
		;
	p = at;
	len = (size_t)(end - p);
	if (parse_hostport(p, len, 1, 0, out) != 0) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

/*
 * A script's domain as a browser's URL.host gives it: a host name (labels
 * of letters, digits, "-", "_"), a dotted quad or a bracketed IPv6
 * literal, with an optional ":port" that is dropped.  Lower-cased and
 * without a trailing dot in out; -1 (out "") for anything else.
 */
int
origin_script_host(const char *in, char out[HOST_MAX + 1])
{
	out[0] = '\0';
	if (in == NULL || parse_hostport(in, strlen(in), 0, 1, out) != 0) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}
