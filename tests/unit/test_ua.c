/* test_ua.c: ua_parse() on hand-written User-Agents; --accuracy FILE scores a labelled TSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/nitems.h"
#include "input/ua.h"
#include "unit.h"

struct ua_case {
	const char *ua, *browser, *os, *device, *what;
};

/* Written for this test from the vendors' documented formats. */
static const struct ua_case cases[] = {
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	    "Chrome", "Windows", "desktop", "Chrome on Windows"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	    "Chrome", "macOS", "desktop", "Chrome on macOS"},
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	    "Chrome", "Linux", "desktop", "Chrome on Linux"},
	{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
	    "Chrome", "Android", "mobile", "Chrome on an Android phone (reduced UA)"},
	{"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36",
	    "Chrome", "Android", "mobile", "Chrome on a Pixel"},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
	    "Chrome", "iOS", "mobile", "Chrome on iPhone (CriOS)"},
	{"Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	    "Chrome", "ChromeOS", "desktop", "Chrome on ChromeOS"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
	    "Safari", "macOS", "desktop", "Safari on macOS"},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
	    "Safari", "iOS", "mobile", "Safari on iPhone"},
	{"Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
	    "Safari", "iPadOS", "tablet", "Safari on iPad"},
	{"Mozilla/5.0 (iPad; CPU OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1",
	    "Safari", "iOS", "tablet", "iPad before iPadOS 13 is iOS"},
	{"Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1",
	    "Safari", "iOS", "mobile", "Safari on iPod touch"},
	/* iPadOS 13+ in its default desktop mode: indistinguishable from a Mac. */
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
	    "Safari", "macOS", "desktop", "iPad in desktop mode reads as a Mac"},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0",
	    "Firefox", "Windows", "desktop", "Firefox on Windows"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0",
	    "Firefox", "macOS", "desktop", "Firefox on macOS"},
	{"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
	    "Firefox", "Linux", "desktop", "Firefox on Ubuntu"},
	{"Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
	    "Firefox", "Android", "mobile", "Firefox on an Android phone"},
	{"Mozilla/5.0 (Android 13; Tablet; rv:125.0) Gecko/125.0 Firefox/125.0",
	    "Firefox", "Android", "tablet", "Firefox on an Android tablet"},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15",
	    "Firefox", "iOS", "mobile", "Firefox on iPhone (FxiOS)"},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80",
	    "Edge", "Windows", "desktop", "Edge on Windows"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80",
	    "Edge", "macOS", "desktop", "Edge on macOS"},
	{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/124.0.2478.64",
	    "Edge", "Android", "mobile", "Edge on Android (EdgA)"},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/124.2478.71 Mobile/15E148 Safari/605.1.15",
	    "Edge", "iOS", "mobile", "Edge on iPhone (EdgiOS)"},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19045",
	    "Edge", "Windows", "desktop", "EdgeHTML Edge"},
	{"Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
	    "Samsung Internet", "Android", "mobile", "Samsung Internet on a Galaxy phone"},
	{"Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Safari/537.36",
	    "Samsung Internet", "Android", "tablet", "Samsung Internet on a Galaxy Tab"},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0",
	    "Opera", "Windows", "desktop", "Opera on Windows"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0",
	    "Opera", "macOS", "desktop", "Opera on macOS"},
	{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 OPR/82.0.4227.78",
	    "Opera", "Android", "mobile", "Opera on Android"},
	{"Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54",
	    "Opera", "Other", "mobile", "Opera Mini on Symbian"},
	{"Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko",
	    "IE", "Windows", "desktop", "IE 11"},
	{"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0)",
	    "IE", "Windows", "desktop", "IE 8"},
	{"Mozilla/5.0 (Mobile; Windows Phone 8.1; Android 4.0; ARM; Trident/7.0; Touch; rv:11.0; IEMobile/11.0; Microsoft; Lumia 640) like iPhone OS 7_0_3 Mac OS X AppleWebKit/537 (KHTML, like Gecko) Mobile Safari/537",
	    "IE", "Other", "mobile", "IE Mobile on Windows Phone"},
	{"Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	    "Chrome", "Android", "tablet", "Chrome on an Android tablet (no Mobile)"},
	{"Mozilla/5.0 (Linux; Android 11; Lenovo TB-J606F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	    "Chrome", "Android", "tablet", "Chrome on a Lenovo tablet"},
	{"Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/124.2.1 like Chrome/124.0.6367.82 Safari/537.36",
	    "Other", "Android", "tablet", "Silk on a Kindle Fire"},
	{"Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A.240405.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36",
	    "Other", "Android", "mobile", "Android WebView"},
	{"Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 YaBrowser/24.4.0.0",
	    "Other", "Android", "mobile", "Yandex Browser is Other"},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/460.0.0.36.105]",
	    "Other", "iOS", "mobile", "Facebook in-app browser"},
	{"Mozilla/5.0 (Linux; U; Android 4.0.4; en-us; GT-I9300 Build/IMM76D) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
	    "Other", "Android", "mobile", "Android stock browser is not Safari"},
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	    "Other", "Other", "desktop", "Googlebot"},
	{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	    "Other", "Android", "mobile", "Googlebot smartphone is not Chrome"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
	    "Other", "Other", "desktop", "bingbot is not Chrome"},
	{"curl/8.5.0", "Other", "Other", "desktop", "curl"},
	{"Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
	    "Chrome", "iPadOS", "tablet", "Chrome on iPad"},
	{"MyShop/5.2 (iPad; iOS 16.6; Scale/2.00)",
	    "Other", "iPadOS", "tablet", "an iPad app's own UA"},
	{"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Saf",
	    "Chrome", "Android", "mobile", "a truncated Chrome UA is still Chrome"},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 NewsReader/3.1",
	    "Other", "Windows", "desktop", "a product after Chrome's Safari/ is not Chrome"},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) FastFork/9.2 Chrome/124.0.0.0 Safari/537.36",
	    "Other", "Windows", "desktop", "a product before Chrome/ is not Chrome"},
	{"Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/110.0.5481.153 Mobile Safari/537.36",
	    "Other", "Android", "mobile", "a WebView without \"wv\" is not Chrome either"},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:115.0) Gecko/20100101 Firefox/115.0 Forkfox/115.4",
	    "Other", "Windows", "desktop", "a Firefox fork is not Firefox"},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
	    "Other", "iOS", "mobile", "an iOS WKWebView is not Safari"},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/310.0.614443953 Mobile/15E148 Safari/604.1",
	    "Other", "iOS", "mobile", "the Google app on iOS is not Safari"},
	{"Mozilla/5.0 (Mobile; Nokia 2780 Flip; rv:84.0) Gecko/84.0 Firefox/84.0 KAIOS/3.1",
	    "Firefox", "Other", "mobile", "KaiOS phone"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
	    "Other", "macOS", "desktop", "Applebot is not Safari"},
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.6367.60 Safari/537.36",
	    "Other", "Linux", "desktop", "headless Chrome"},
	{"python-requests/2.31.0", "Other", "Other", "desktop", "python-requests"},
	{"Wget/1.21.4", "Other", "Other", "desktop", "Wget"},
	{"Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.15063",
	    "Edge", "Other", "mobile", "Edge on Windows 10 Mobile"},
};

static void check_case(const struct ua_case *c)
{
	struct ua_info u;
	char what[200];

	ua_parse(c->ua, &u);
	snprintf(what, sizeof(what), "%s: browser", c->what);
	CHECK_STR(u.browser, c->browser, what);
	snprintf(what, sizeof(what), "%s: os", c->what);
	CHECK_STR(u.os, c->os, what);
	snprintf(what, sizeof(what), "%s: device", c->what);
	CHECK_STR(u.device, c->device, what);
}

static void unit_checks(void)
{
	static char garbage[10 * 1024 + 1];
	struct ua_info u;
	size_t i;
	unsigned x = 12345;

	for (i = 0; i < nitems(cases); i++)
		check_case(&cases[i]);

	ua_parse(NULL, &u);
	CHECK(u.browser == NULL && u.os == NULL, "NULL UA: no browser, no OS");
	CHECK_STR(u.device, "desktop", "NULL UA: desktop");
	ua_parse("", &u);
	CHECK(u.browser == NULL && u.os == NULL, "empty UA: no browser, no OS");
	CHECK_STR(u.device, "desktop", "empty UA: desktop");

	/* 10 KiB of noise bytes (no NUL), then a real token past the examined prefix. */
	for (i = 0; i < sizeof(garbage) - 1; i++) {
		x = x * 1103515245u + 12345u;
		garbage[i] = (char)(1 + (x >> 16) % 255);
	}
	garbage[sizeof(garbage) - 1] = '\0';
	memcpy(garbage + sizeof(garbage) - 1 - 8, "Android ", 8);
	ua_parse(garbage, &u);
	CHECK(u.browser != NULL && u.os != NULL && u.device != NULL,
	    "10 KiB of garbage: classified");
	CHECK_STR(u.os, "Other", "10 KiB of garbage: tokens past 8 KiB ignored");
}

/* Accuracy over a labelled TSV (tests/../shared/data/ua/README.md). */

enum { COL_BROWSER, COL_OS, COL_DEVICE, NCOL };
#define NLABEL 10 /* largest vocabulary (8) + "(none)" + unknown */

static const char *const col_name[NCOL] = {"browser", "os", "device"};
static const char *const vocab[NCOL][NLABEL] = {
	{"Chrome", "Firefox", "Safari", "Edge", "Opera", "Samsung Internet", "IE", "Other"},
	{"Windows", "macOS", "iOS", "iPadOS", "Android", "Linux", "ChromeOS", "Other"},
	{"desktop", "mobile", "tablet"},
};

struct score {
	long n, ok;
	long label_n[NLABEL], label_ok[NLABEL];
	long confusion[NLABEL][NLABEL]; /* [want][got] */
};

/* Index of s in the column's vocabulary; NLABEL-2 for NULL, NLABEL-1 if unknown. */
static int label_index(int col, const char *s)
{
	int i;

	if (s == NULL)
		return NLABEL - 2;
	for (i = 0; i < NLABEL - 2 && vocab[col][i] != NULL; i++)
		if (strcmp(vocab[col][i], s) == 0)
			return i;
	return NLABEL - 1;
}

static const char *label_name(int col, int i)
{
	if (i == NLABEL - 2)
		return "(none)";
	if (i == NLABEL - 1 || vocab[col][i] == NULL)
		return "(unknown)";
	return vocab[col][i];
}

static double pct(long ok, long n)
{
	return n ? 100.0 * (double)ok / (double)n : 0.0;
}

static int accuracy(const char *path, const double min[NCOL])
{
	static struct score sc[NCOL];
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int c, i, j;

	if (f == NULL) {
		perror(path);
		return 2;
	}
	while (getline(&line, &cap, f) != -1) {
		char *field[1 + NCOL];
		char *p = line;
		struct ua_info u;
		const char *got[NCOL];

		if (lineno++ == 0)
			continue; /* header */
		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < 1 + NCOL; i++) {
			field[i] = p;
			p += strcspn(p, "\t");
			if (*p == '\t')
				*p++ = '\0';
		}
		ua_parse(field[0], &u);
		got[COL_BROWSER] = u.browser;
		got[COL_OS] = u.os;
		got[COL_DEVICE] = u.device;
		for (c = 0; c < NCOL; c++) {
			int want, have;

			if (field[1 + c][0] == '\0')
				continue; /* no clear-cut label: not scored */
			want = label_index(c, field[1 + c]);
			have = label_index(c, got[c]);
			sc[c].n++;
			sc[c].label_n[want]++;
			if (want == have && want < NLABEL - 2) {
				sc[c].ok++;
				sc[c].label_ok[want]++;
			} else {
				sc[c].confusion[want][have]++;
			}
		}
	}
	free(line);
	fclose(f);

	for (c = 0; c < NCOL; c++) {
		printf("%s %.1f%% (%ld/%ld)\n", col_name[c], pct(sc[c].ok, sc[c].n),
		    sc[c].ok, sc[c].n);
		for (i = 0; i < NLABEL; i++)
			if (sc[c].label_n[i] > 0)
				printf("#   %s %s %.1f%% (%ld/%ld)\n", col_name[c],
				    label_name(c, i), pct(sc[c].label_ok[i], sc[c].label_n[i]),
				    sc[c].label_ok[i], sc[c].label_n[i]);
		for (i = 0; i < NLABEL; i++)
			for (j = 0; j < NLABEL; j++)
				if (sc[c].confusion[i][j] > 0)
					printf("#   %s %s -> %s: %ld\n", col_name[c],
					    label_name(c, i), label_name(c, j),
					    sc[c].confusion[i][j]);
	}
	for (c = 0; c < NCOL; c++) {
		double a = pct(sc[c].ok, sc[c].n);

		if (min[c] < 0)
			continue;
		printf("%s - %s accuracy %.1f%% >= %g%%\n",
		    sc[c].n > 0 && a >= min[c] ? "ok" : "not ok", col_name[c], a, min[c]);
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: test_ua [--accuracy FILE [--min-browser P] "
	    "[--min-os P] [--min-device P]]\n");
	return 2;
}

int main(int argc, char **argv)
{
	double min[NCOL] = {-1, -1, -1};
	const char *file = NULL;
	int i;

	if (argc == 1) {
		unit_checks();
		UNIT_DONE();
	}
	for (i = 1; i < argc; i++) {
		int c = -1;
		char *end;

		if (strcmp(argv[i], "--accuracy") == 0 && i + 1 < argc) {
			file = argv[++i];
			continue;
		}
		if (strcmp(argv[i], "--min-browser") == 0)
			c = COL_BROWSER;
		else if (strcmp(argv[i], "--min-os") == 0)
			c = COL_OS;
		else if (strcmp(argv[i], "--min-device") == 0)
			c = COL_DEVICE;
		if (c < 0 || i + 1 >= argc)
			return usage();
		min[c] = strtod(argv[++i], &end);
		if (end == argv[i] || *end != '\0' || min[c] < 0 || min[c] > 100)
			return usage();
	}
	if (file == NULL)
		return usage();
	return accuracy(file, min);
}
