/* ua.c: coarse browser, OS and device type from a User-Agent header (CONTRACT 7). */
#define _GNU_SOURCE   /* memmem */
#include <stddef.h>
#include <string.h>

#include "base/limits.h"
#include "base/nitems.h"
#include "input/ua.h"


static const char OTHER[] = "Other";

/* A rule: when token occurs in the UA (case-sensitive), the answer is value. */
struct rule {
	const char *token;
	const char *value;
};

/*
 * A browser rule also has a tail (when not NULL): the only words allowed
 * after the token's own word, as space-separated prefixes; "" allows none.
 * That is what the real browser sends: anything more is a fork, an in-app
 * browser or a bot that borrowed the token.
 */
struct browser_rule {
	const char *token;
	const char *value;
	const char *tail;
};

/*
 * Automated clients.  Many of them borrow a browser's tokens (Googlebot
 * smartphone and bingbot say Chrome/), so they are looked at first.  Both
 * spellings of "bot" rather than a case-blind match: device names such as
 * CUBOT are upper case.
 */
static const char *const bots[] = {
	"bot", "Bot", "spider", "Spider", "crawl", "Crawl", "Slurp",
	"facebookexternalhit", "curl/", "Wget", "wget", "python", "Python",
	"Java/1.", "okhttp", "libwww", "HttpClient", "Go-http-client",
	"node-fetch", "axios/", "Headless", "Lighthouse", "PTST/",
};

/*
 * Browsers, first match wins.  Browsers outside the list that carry a
 * listed one's tokens come before the tokens they borrow; Edge, Opera and
 * Samsung Internet before Chrome; Opera and the phone browsers that claim
 * "MSIE" before IE.  Chrome, Firefox and Safari are also held to their
 * tails; Safari must in addition be on an Apple OS and say "Safari"
 * (ua_parse).
 */
static const struct browser_rule browsers[] = {
	{"; wv)", OTHER, NULL}, /* Android WebView: an app, not Chrome */
	{"FBAN/", OTHER, NULL}, {"FBAV/", OTHER, NULL}, {"Instagram", OTHER, NULL},
	{"YaBrowser/", OTHER, NULL}, {"Vivaldi/", OTHER, NULL},
	{"UCBrowser", OTHER, NULL}, {"UC Browser", OTHER, NULL},
	{"UCWEB", OTHER, NULL}, {"Silk/", OTHER, NULL},
	{"MiuiBrowser", OTHER, NULL}, {"Puffin/", OTHER, NULL},
	{"QQBrowser", OTHER, NULL}, {"Whale/", OTHER, NULL},
	{"baidubrowser", OTHER, NULL},

	{"Edg/", "Edge", NULL}, {"Edge/", "Edge", NULL},
	{"EdgA/", "Edge", NULL}, {"EdgiOS/", "Edge", NULL},
	{"OPR/", "Opera", NULL}, {"Opera", "Opera", NULL},
	{"OPiOS/", "Opera", NULL}, {"OPT/", "Opera", NULL},
	{"Coast/", "Opera", NULL},
	{"SamsungBrowser/", "Samsung Internet", NULL},

	{"BlackBerry", OTHER, NULL}, {"Series60", OTHER, NULL},
	{"Series80", OTHER, NULL}, {"S60/", OTHER, NULL},
	{"NetFront", OTHER, NULL}, {"UP.Browser", OTHER, NULL},
	{"Sleipnir", OTHER, NULL},
	{"Trident/", "IE", NULL}, {"MSIE ", "IE", NULL}, {"IEMobile", "IE", NULL},

	{"FxiOS/", "Firefox", "Mobile Safari/"},
	{"Firefox", "Firefox", "KaiOS/ KAIOS/ Fennec/"},
	{"CriOS/", "Chrome", "Mobile Safari/"},
	{"CrMo/", "Chrome", "Mobile Safari/"},
	{"Gecko) Chrome/", "Chrome", "Mobile Safari/ CrKey/ DeviceType/"},
	{"Version/", "Safari", "Mobile Safari/"},
	{"Gecko) Safari/", "Safari", ""}, /* Safari 1 and 2, before Version/ */
};

/*
 * Operating systems, first match wins: Windows Phone first (it also claims
 * Android and iPhone); an Apple device in the UA's first comment before
 * Android, a mere model name "iPhone" after it; KaiOS before the "iOS" in
 * its name; Apple's mobile systems before the "Mac OS X" their UAs contain;
 * TVs and feature phones before the Linux they run.  "iPad" is refined to
 * iOS for versions before 13 (ua_parse).
 */
static const struct rule systems[] = {
	{"Windows Phone", OTHER}, {"Windows Mobile", OTHER},
	{"Windows CE", OTHER}, {"wds ", OTHER},
	{"CrOS ", "ChromeOS"},
	{"(iPad", "iPadOS"}, {"(iPhone", "iOS"}, {"(iPod", "iOS"},
	{"iPhone OS", "iOS"},
	{"Android", "Android"}, {"android", "Android"},
	{"iPad", "iPadOS"}, {"iPhone", "iOS"}, {"iPod", "iOS"},
	{"KAIOS", OTHER}, {"KaiOS", OTHER},
	{"iOS", "iOS"}, {"like Mac OS X", "iOS"},
	{"Macintosh", "macOS"}, {"Mac OS X", "macOS"},
	{"Windows", "Windows"}, {"Win32", "Windows"},
	{"Symbian", OTHER}, {"SymbOS", OTHER},
	{"BlackBerry", OTHER}, {"BB10", OTHER},
	{"BSD", OTHER},
	{"BREW", OTHER}, {"Web0S", OTHER}, {"webOS", OTHER},
	{"Tizen", OTHER},
	{"Linux", "Linux"}, {"linux", "Linux"},
	{"X11;", "Linux"}, {"Ubuntu", "Linux"},
};

/* Device type outside Android, first match wins; default desktop. */
static const struct rule devices[] = {
	{"iPad", "tablet"},
	{"Tablet PC", "desktop"}, /* IE on Windows laptops with a pen */
	{"Tablet", "tablet"}, {"PlayBook", "tablet"},
	{"Kindle", "tablet"}, {"Silk/", "tablet"},
	{"iPhone", "mobile"}, {"iPod", "mobile"},
	{"Phone", "mobile"}, {"Mobi", "mobile"},
	{"Opera Mini", "mobile"}, {"Symbian", "mobile"},
	{"SymbOS", "mobile"}, {"BlackBerry", "mobile"},
	{"MIDP", "mobile"}, {"KAIOS", "mobile"},
};

/*
 * Android models that are tablets even when their UA says "Mobile" (or is
 * not a browser's).  An Android browser without "Mobile" is a tablet anyway
 * (Google's convention).
 */
static const char *const android_tablets[] = {
	"Tablet", "Nexus 7", "Nexus 9", "Nexus 10", "SM-T", "SM-P", "SM-X",
	"GT-P", "Kindle", "Silk/", "; KF",
};

/* Where tok first occurs in the n bytes at s, or NULL. */
static const char *find(const char *s, size_t n, const char *tok)
{
	size_t m = strlen(tok);

	return m > 0 ? memmem(s, n, tok, m) : NULL;
}

static int has(const char *s, size_t n, const char *tok)
{
	return find(s, n, tok) != NULL;
}

static int any_of(const char *s, size_t n, const char *const *toks, size_t nt)
{
	size_t i;

	for (i = 0; i < nt; i++)
		if (has(s, n, toks[i]))
			return 1;
	return 0;
}

/*
 * Whether the word w (wn bytes) is allowed by tail: it begins with one of
 * the prefixes, or, as the last word of a truncated UA, is the start of one.
 */
static int tail_word_ok(const char *w, size_t wn, int last, const char *tail)
{
	while (*tail != '\0') {
		size_t pn = strcspn(tail, " ");

		if (wn >= pn ? memcmp(w, tail, pn) == 0 : last && memcmp(w, tail, wn) == 0)
			return 1;
		tail += pn;
		tail += strspn(tail, " ");
	}
	return 0;
}

/* Whether every word after the one p is in (up to end) is allowed by tail. */
static int tail_ok(const char *p, const char *end, const char *tail)
{
	while (p < end && *p != ' ')
		p++;
	for (;;) {
		const char *w;

		while (p < end && *p == ' ')
			p++;
		if (p == end)
			return 1;
		for (w = p; p < end && *p != ' '; p++)
			;
		if (!tail_word_ok(w, (size_t)(p - w), p == end, tail))
			return 0;
	}
}

/* The value of the first rule whose token occurs, or NULL. */
static const char *match(const char *s, size_t n, const struct rule *r, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (has(s, n, r[i].token))
			return r[i].value;
	return NULL;
}

/* The browser of the first rule whose token occurs and whose tail holds, or NULL. */
static const char *match_browser(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < nitems(browsers); i++) {
		const struct browser_rule *r = &browsers[i];
		const char *p = find(s, n, r->token);

		if (p != NULL && (r->tail == NULL ||
		    tail_ok(p + strlen(r->token), s + n, r->tail)))
			return r->value;
	}
	return NULL;
}

/* The major version after " OS " ("CPU OS 17_4 like Mac OS X") or "iOS ", or 0. */
static int ios_major(const char *s, size_t n)
{
	const char *p = find(s, n, " OS ");
	const char *end = s + n;
	int v = 0;

	if (p == NULL)
		p = find(s, n, "iOS ");
	if (p == NULL)
		return 0;
	for (p += 4; p < end && *p >= '0' && *p <= '9' && v < 1000; p++)
		v = v * 10 + (*p - '0');
	return v;
}

static int is(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

/*
 * ua_parse: a coarse reading of a User-Agent for consent statistics
 * (CONTRACT 7), from ordered tables of substrings: no regular expressions,
 * no allocation, and only the first HEADER_MAX bytes of ua are examined.
 *
 * - browser: the first rule of the browser table that holds; bots and HTTP
 *   libraries, and everything not in the table, are "Other".  Chrome,
 *   Firefox and Safari only with nothing after their token but their own
 *   words, and Safari only on an Apple OS, so forks, in-app browsers and
 *   webviews that borrow their tokens are "Other".
 * - os: the first rule of the OS table, else "Other".  "iPad" means iPadOS
 *   from version 13 (where the name starts), iOS before.
 * - device: Android is a tablet when the model is a known tablet or a
 *   browser UA lacks "Mobile", else mobile; elsewhere the device table
 *   (iPad and Kindle tablet, phones mobile), desktop when nothing says
 *   otherwise.  An iPad in desktop mode (the iPadOS default) sends a
 *   Macintosh UA that only touch support, invisible here, tells apart: it
 *   is reported as macOS, desktop.
 *
 * NULL or empty ua: browser and os NULL, device "desktop".
 */
void ua_parse(const char *ua, struct ua_info *out)
{
	size_t n = ua != NULL ? strnlen(ua, HEADER_MAX) : 0;
	const char *os, *browser, *device;

	out->browser = NULL;
	out->os = NULL;
	out->device = "desktop";
	if (n == 0)
		return;

	os = match(ua, n, systems, nitems(systems));
	if (os == NULL)
		os = OTHER;
	else if (is(os, "iPadOS") && ios_major(ua, n) < 13)
		os = "iOS";

	browser = any_of(ua, n, bots, nitems(bots)) ? OTHER :
	    match_browser(ua, n);
	if (browser == NULL || (is(browser, "Safari") && (!has(ua, n, "Safari") ||
	    !(is(os, "macOS") || is(os, "iOS") || is(os, "iPadOS")))))
		browser = OTHER;

	if (is(os, "Android")) {
		if (any_of(ua, n, android_tablets, nitems(android_tablets)))
			device = "tablet";
		else if (has(ua, n, "Mobi") || !has(ua, n, "Mozilla/5.0"))
			device = "mobile";
		else
			device = "tablet";
	} else {
		device = match(ua, n, devices, nitems(devices));
	}

	out->os = os;
	out->browser = browser;
	out->device = device != NULL ? device : "desktop";
}
