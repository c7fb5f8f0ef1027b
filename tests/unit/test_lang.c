/* test_lang.c: lang_negotiate() against CONTRACT 5.3 and RFC 9110 Accept-Language. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "input/lang.h"
#include "base/limits.h"
#include "base/nitems.h"
#include "unit.h"

static const char *const avail[] = { "en", "de", "fr", "pt-BR", "zh-Hant" };
#define NAVAIL (nitems(avail))

/* The available key chosen, or "(none)". */
static const char *
pick(const char *lang, const char *accept, const char *region, const char *content)
{
	int i = lang_negotiate(avail, NAVAIL, lang, accept, region, content);

	return i < 0 ? "(none)" : avail[i];
}

static void
test_sources(void)
{
	CHECK_STR(pick("fr", "de", "pt-BR", "zh-Hant"), "fr", "lang parameter first");
	CHECK_STR(pick("xx", "de", "fr", "en"), "de", "Accept-Language after an unknown lang");
	CHECK_STR(pick(NULL, "de;q=0.5, fr;q=0.8", NULL, NULL), "fr", "Accept-Language by q");
	CHECK_STR(pick(NULL, "de;q=0.8, fr;q=0.8", NULL, NULL), "de", "equal q: header order");
	CHECK_STR(pick(NULL, "fr;q=0.8, de;q=0.8", NULL, NULL), "fr", "equal q: header order, reversed");
	CHECK_STR(pick(NULL, "xx, de;q=0.001", NULL, NULL), "de", "smallest q still counts");
	CHECK_STR(pick(NULL, "fr;q=0.5, de", NULL, NULL), "de", "no q means 1");
	CHECK_STR(pick(NULL, "it, es", "fr", "de"), "fr", "region default after Accept-Language");
	CHECK_STR(pick(NULL, NULL, "it", "de"), "de", "content default after region default");
	CHECK_STR(pick(NULL, NULL, NULL, NULL), "en", "en last");
	CHECK_STR(pick("", "", "", ""), "en", "empty strings skipped, en last");
	{
		static const char *const no_en[] = { "de", "fr" };

		CHECK(lang_negotiate(no_en, 2, "it", "es", "nl", "pl") == -1,
		    "nothing matches: -1");
		CHECK(lang_negotiate(no_en, 2, NULL, NULL, NULL, NULL) == -1,
		    "no candidates and no en: -1");
	}
	CHECK(lang_negotiate(NULL, 3, "en", NULL, NULL, NULL) == -1, "avail NULL: -1");
	CHECK(lang_negotiate(avail, 0, "en", NULL, NULL, NULL) == -1, "no languages: -1");
	{
		static const char *const holes[] = { NULL, "de" };

		CHECK(lang_negotiate(holes, 2, "de", NULL, NULL, NULL) == 1,
		    "NULL keys in avail skipped");
	}
}

static void
test_matching(void)
{
	CHECK_STR(pick("DE", NULL, NULL, NULL), "de", "case-insensitive");
	CHECK_STR(pick("pt-br", NULL, NULL, NULL), "pt-BR", "case-insensitive with region");
	CHECK_STR(pick("ZH-hANT", NULL, NULL, NULL), "zh-Hant", "case-insensitive with script");
	CHECK_STR(pick("de-AT", NULL, NULL, NULL), "de", "primary subtag de-AT -> de");
	CHECK_STR(pick("de-Latn-AT", NULL, NULL, NULL), "de", "primary subtag of a longer tag");
	CHECK_STR(pick(NULL, "de-CH", NULL, NULL), "de", "primary subtag from the header");
	CHECK_STR(pick("pt", NULL, NULL, NULL), "pt-BR", "pt -> pt-BR (same primary subtag)");
	CHECK_STR(pick("pt-PT", NULL, NULL, NULL), "pt-BR", "pt-PT -> pt-BR (same primary subtag)");
	CHECK_STR(pick(NULL, "zh-TW, en;q=0.9", NULL, NULL), "zh-Hant", "first choice in any form beats a later exact one");
	CHECK_STR(pick("d", NULL, NULL, NULL), "en", "d is not a prefix of de");
	CHECK_STR(pick("deu", NULL, NULL, NULL), "en", "deu is not de");
	{
		static const char *const both[] = { "de-CH", "de", "de-AT" };

		CHECK(lang_negotiate(both, 3, "de-AT", NULL, NULL, NULL) == 2,
		    "exact match beats primary subtag");
		CHECK(lang_negotiate(both, 3, "de-DE", NULL, NULL, NULL) == 1,
		    "candidate's primary subtag beats a sibling region");
		CHECK(lang_negotiate(both + 1, 1, "de-DE", NULL, NULL, NULL) == 0,
		    "de-DE -> de");
		CHECK(lang_negotiate(both, 1, "de-LI", NULL, NULL, NULL) == 0,
		    "de-LI -> de-CH when only a sibling exists");
	}
	{
		static const char *const regional[] = { "en-US", "fr-FR" };

		CHECK(lang_negotiate(regional, 2, NULL, NULL, NULL, NULL) == 0,
		    "fallback en finds en-US");
		CHECK(lang_negotiate(regional, 2, NULL, NULL, NULL, "fr") == 1,
		    "content default fr finds fr-FR");
	}
	CHECK_STR(pick("de_DE", NULL, NULL, NULL), "en", "underscore tag skipped");
	CHECK_STR(pick("*", "fr", NULL, NULL), "fr", "lang=* skipped");
	CHECK_STR(pick("de-", NULL, NULL, NULL), "en", "trailing hyphen skipped");
	CHECK_STR(pick("-de", NULL, NULL, NULL), "en", "leading hyphen skipped");
	CHECK_STR(pick("de--at", NULL, NULL, NULL), "en", "empty subtag skipped");
	CHECK_STR(pick("1de", NULL, NULL, NULL), "en", "digit primary subtag skipped");
	CHECK_STR(pick("deutschland", NULL, NULL, NULL), "en", "subtag over 8 characters skipped");
	CHECK_STR(pick("de ", NULL, NULL, NULL), "en", "lang with trailing space skipped");
	CHECK_STR(pick("de-aaaaaaaa-bbbbbbbb-cccccccc-ddddd", NULL, NULL, NULL), "de",
	    "35-character tag accepted");
	CHECK_STR(pick("de-aaaaaaaa-bbbbbbbb-cccccccc-dddddd", NULL, NULL, NULL), "en",
	    "36-character tag skipped");
}

static void
test_accept_syntax(void)
{
	CHECK_STR(pick(NULL, "fr;q=0, de;q=0.1", NULL, NULL), "de", "q=0 excluded");
	CHECK_STR(pick(NULL, "fr;q=0.000", NULL, "de"), "de", "q=0.000 excluded");
	CHECK_STR(pick(NULL, "fr;q=0.", NULL, "de"), "de", "q=0. excluded");
	CHECK_STR(pick(NULL, "fr;q=1.000, de", NULL, NULL), "fr", "q=1.000 valid");
	CHECK_STR(pick(NULL, "fr;q=1., de", NULL, NULL), "fr", "q=1. valid");
	CHECK_STR(pick(NULL, "fr;Q=0.9, de;q=0.5", NULL, NULL), "fr", "Q is case-insensitive");
	CHECK_STR(pick(NULL, "fr;q=2, de;q=0.1", NULL, NULL), "de", "q=2 skipped");
	CHECK_STR(pick(NULL, "fr;q=1.5, de;q=0.1", NULL, NULL), "de", "q=1.5 skipped");
	CHECK_STR(pick(NULL, "fr;q=1.001, de;q=0.1", NULL, NULL), "de", "q=1.001 skipped");
	CHECK_STR(pick(NULL, "fr;q=abc, de;q=0.1", NULL, NULL), "de", "q=abc skipped");
	CHECK_STR(pick(NULL, "fr;q=0.5.5, de;q=0.1", NULL, NULL), "de", "q=0.5.5 skipped");
	CHECK_STR(pick(NULL, "fr;q=0.1234, de;q=0.1", NULL, NULL), "de", "four decimals skipped");
	CHECK_STR(pick(NULL, "fr;q=, de;q=0.1", NULL, NULL), "de", "empty q skipped");
	CHECK_STR(pick(NULL, "fr;q=.5, de;q=0.1", NULL, NULL), "de", "q=.5 skipped");
	CHECK_STR(pick(NULL, "fr;q=-0.5, de;q=0.1", NULL, NULL), "de", "negative q skipped");
	CHECK_STR(pick(NULL, "fr;q=05, de;q=0.1", NULL, NULL), "de", "q=05 skipped");
	CHECK_STR(pick(NULL, "fr;level=1, de;q=0.1", NULL, NULL), "de", "other parameter skipped");
	CHECK_STR(pick(NULL, "fr;q=0.9;q=0.8, de;q=0.1", NULL, NULL), "de", "two weights skipped");
	CHECK_STR(pick(NULL, "fr;, de;q=0.1", NULL, NULL), "de", "bare semicolon skipped");
	CHECK_STR(pick(NULL, "*, de;q=0.1", NULL, NULL), "de", "* ignored");
	CHECK_STR(pick(NULL, "*;q=0.9", NULL, "fr"), "fr", "* with q ignored");
	CHECK_STR(pick(NULL, "*", NULL, NULL), "en", "only * falls back");
	CHECK_STR(pick(NULL, "  fr ;  q=0.5 ,\tde\t;\tq = 0.7  ", NULL, NULL), "de",
	    "whitespace around , ; = tolerated");
	CHECK_STR(pick(NULL, ",,, ,fr,,", NULL, NULL), "fr", "empty list elements ignored");
	CHECK_STR(pick(NULL, "fr de", NULL, "pt-BR"), "pt-BR", "space inside an element skipped");
	CHECK_STR(pick(NULL, "fr\r\nde", NULL, "pt-BR"), "pt-BR", "CR/LF inside an element skipped");
	CHECK_STR(pick(NULL, "de_DE, fr;q=0.1", NULL, NULL), "fr", "underscore tag skipped");
	CHECK_STR(pick(NULL, "\xc3\xa9, fr;q=0.1", NULL, NULL), "fr", "non-ASCII tag skipped");
	CHECK_STR(pick(NULL, "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", NULL, NULL), "de",
	    "a real browser header");
	CHECK_STR(pick(NULL, "es;q=0.9, pt;q=0.8, de;q=0.7", NULL, NULL), "pt-BR",
	    "unavailable first choice, pt -> pt-BR");
}

static void
test_limits(void)
{
	char hdr[HEADER_MAX + 64];
	size_t n = 0;
	int i;

	/* 16 unknown tags then fr: fr is the 17th and never looked at. */
	for (i = 0; i < 16; i++)
		n += (size_t)snprintf(hdr + n, sizeof(hdr) - n, "x%c,", 'a' + i);
	snprintf(hdr + n, sizeof(hdr) - n, "fr");
	CHECK_STR(pick(NULL, hdr, NULL, "de"), "de", "17th tag not considered");
	/* fr as the 16th is. */
	n = 0;
	for (i = 0; i < 15; i++)
		n += (size_t)snprintf(hdr + n, sizeof(hdr) - n, "x%c,", 'a' + i);
	snprintf(hdr + n, sizeof(hdr) - n, "fr");
	CHECK_STR(pick(NULL, hdr, NULL, "de"), "fr", "16th tag considered");
	/* 16 entries that all fit: sorting keeps the best. */
	n = 0;
	for (i = 0; i < 15; i++)
		n += (size_t)snprintf(hdr + n, sizeof(hdr) - n, "x%c;q=0.%d,", 'a' + i, i % 9 + 1);
	snprintf(hdr + n, sizeof(hdr) - n, "fr;q=0.05");
	CHECK_STR(pick(NULL, hdr, NULL, "de"), "fr", "16 weighted entries sorted");
	/* Malformed entries count toward the limit too. */
	n = 0;
	for (i = 0; i < 16; i++)
		n += (size_t)snprintf(hdr + n, sizeof(hdr) - n, "!!,");
	snprintf(hdr + n, sizeof(hdr) - n, "fr");
	CHECK_STR(pick(NULL, hdr, NULL, "de"), "de", "malformed entries count toward the limit");

	/* Exactly HEADER_MAX bytes is read; one more and the header is ignored. */
	memset(hdr, ' ', HEADER_MAX);
	memcpy(hdr, "fr", 2);
	hdr[HEADER_MAX] = '\0';
	CHECK_STR(pick(NULL, hdr, NULL, "de"), "fr", "8 KiB header read");
	memset(hdr, ' ', HEADER_MAX + 1);
	memcpy(hdr, "fr", 2);
	hdr[HEADER_MAX + 1] = '\0';
	CHECK_STR(pick(NULL, hdr, NULL, "de"), "de", "header over 8 KiB ignored");
	memset(hdr, 'a', HEADER_MAX);
	hdr[HEADER_MAX] = '\0';
	CHECK_STR(pick(NULL, hdr, NULL, "de"), "de", "one 8 KiB tag skipped");
	memset(hdr, ';', HEADER_MAX);
	hdr[HEADER_MAX] = '\0';
	CHECK_STR(pick("fr", hdr, NULL, NULL), "fr", "8 KiB of junk, lang still wins");
	CHECK_STR(pick(NULL, hdr, NULL, NULL), "en", "8 KiB of junk falls back");
	memset(hdr, 'a', sizeof(hdr) - 1);
	hdr[sizeof(hdr) - 1] = '\0';
	CHECK_STR(pick(hdr, NULL, NULL, NULL), "en", "overlong lang skipped");
	CHECK_STR(pick(NULL, NULL, hdr, hdr), "en", "overlong defaults skipped");
}

/* The built-in languages that regional variants choose among. */
static const char *const builtin[] = {
	"en", "es", "es-419", "pt", "pt-BR", "zh-CN", "zh-TW", "nb", "nn", "he", "id", "ro",
	"sr", "de",
};

/* The key of keys[] chosen for candidate lang (the query parameter), or "(none)". */
static const char *
pick_in(const char *const *keys, size_t n, const char *lang, const char *accept)
{
	int i = lang_negotiate(keys, n, lang, accept, NULL, NULL);

	return i < 0 ? "(none)" : keys[i];
}

#define BUILTIN(lang) pick_in(builtin, nitems(builtin), (lang), NULL)

/* docs/sdk.md "Languages": CONTRACT 5.3 and the regional variant rules of lang.c. */
static void
test_variants(void)
{
	static const char *const hk[] = { "en", "zh-CN", "zh-HK", "zh-TW" };
	static const char *const scripts[] = { "en", "zh-Hans", "zh-Hant" };
	static const char *const only_cn[] = { "en", "zh-CN" };
	static const char *const legacy[] = { "en", "no", "iw", "in" };
	static const char *const mx[] = { "en", "es", "es-MX" };
	static const char *const br_only[] = { "en", "pt-BR" };

	CHECK_STR(BUILTIN("pt-BR"), "pt-BR", "pt-BR: Brazilian Portuguese");
	CHECK_STR(BUILTIN("pt-br"), "pt-BR", "pt-br: case does not matter");
	CHECK_STR(BUILTIN("pt-PT"), "pt", "pt-PT: European Portuguese");
	CHECK_STR(BUILTIN("pt"), "pt", "pt: European Portuguese");
	CHECK_STR(BUILTIN("pt-AO"), "pt", "pt-AO (Angola): European Portuguese");
	CHECK_STR(pick_in(br_only, 2, "pt-PT", NULL), "pt-BR", "pt-PT with only pt-BR: pt-BR");
	CHECK_STR(BUILTIN("zh-TW"), "zh-TW", "zh-TW: Traditional");
	CHECK_STR(BUILTIN("zh-HK"), "zh-TW", "zh-HK: Traditional (zh-TW)");
	CHECK_STR(BUILTIN("zh-MO"), "zh-TW", "zh-MO: Traditional (zh-TW)");
	CHECK_STR(BUILTIN("zh-Hant"), "zh-TW", "zh-Hant: Traditional");
	CHECK_STR(BUILTIN("zh-Hant-HK"), "zh-TW", "zh-Hant-HK: Traditional");
	CHECK_STR(BUILTIN("zh-hant-cn"), "zh-TW", "zh-Hant-CN: the script decides, Traditional");
	CHECK_STR(BUILTIN("zh"), "zh-CN", "zh: Simplified");
	CHECK_STR(BUILTIN("zh-CN"), "zh-CN", "zh-CN: Simplified");
	CHECK_STR(BUILTIN("zh-SG"), "zh-CN", "zh-SG: Simplified");
	CHECK_STR(BUILTIN("zh-MY"), "zh-CN", "zh-MY: Simplified");
	CHECK_STR(BUILTIN("zh-Hans"), "zh-CN", "zh-Hans: Simplified");
	CHECK_STR(BUILTIN("zh-Hans-HK"), "zh-CN", "zh-Hans-HK: the script decides, Simplified");
	CHECK_STR(pick_in(hk, 4, "zh-HK", NULL), "zh-HK", "zh-HK where a zh-HK exists: zh-HK");
	CHECK_STR(pick_in(hk, 4, "zh-MO", NULL), "zh-HK", "zh-MO prefers zh-HK to zh-TW");
	CHECK_STR(pick_in(scripts, 3, "zh-TW", NULL), "zh-Hant", "zh-TW finds zh-Hant");
	CHECK_STR(pick_in(scripts, 3, "zh-HK", NULL), "zh-Hant", "zh-HK finds zh-Hant");
	CHECK_STR(pick_in(scripts, 3, "zh-CN", NULL), "zh-Hans", "zh-CN finds zh-Hans");
	CHECK_STR(pick_in(scripts, 3, "zh", NULL), "zh-Hans", "zh finds zh-Hans");
	CHECK_STR(pick_in(only_cn, 2, "zh-TW", NULL), "zh-CN",
	    "zh-TW with Simplified only: Simplified rather than English");
	CHECK_STR(BUILTIN("es-419"), "es-419", "es-419: Latin American Spanish");
	CHECK_STR(BUILTIN("es-MX"), "es-419", "es-MX: Latin American Spanish");
	CHECK_STR(BUILTIN("es-AR"), "es-419", "es-AR: Latin American Spanish");
	CHECK_STR(BUILTIN("es-CO"), "es-419", "es-CO: Latin American Spanish");
	CHECK_STR(BUILTIN("es-US"), "es-419", "es-US: Latin American Spanish");
	CHECK_STR(BUILTIN("es-ES"), "es", "es-ES: Spain's Spanish");
	CHECK_STR(BUILTIN("es"), "es", "es: Spain's Spanish");
	CHECK_STR(BUILTIN("es-GQ"), "es", "es-GQ (Equatorial Guinea): Spain's Spanish");
	CHECK_STR(pick_in(mx, 3, "es-AR", NULL), "es-MX", "es-AR without es-419: es-MX");
	CHECK_STR(pick_in(mx, 3, "es-419", NULL), "es-MX", "es-419 without es-419: es-MX");
	CHECK_STR(BUILTIN("no"), "nb", "no: Bokmal");
	CHECK_STR(BUILTIN("no-NO"), "nb", "no-NO: Bokmal");
	CHECK_STR(BUILTIN("nb-NO"), "nb", "nb-NO: Bokmal");
	CHECK_STR(BUILTIN("nn-NO"), "nn", "nn-NO: Nynorsk");
	CHECK_STR(pick_in(legacy, 4, "nb", NULL), "no", "nb where the key is no");
	CHECK_STR(BUILTIN("iw"), "he", "iw (withdrawn): he");
	CHECK_STR(BUILTIN("iw-IL"), "he", "iw-IL: he");
	CHECK_STR(BUILTIN("in"), "id", "in (withdrawn): id");
	CHECK_STR(BUILTIN("mo"), "ro", "mo (withdrawn): ro");
	CHECK_STR(pick_in(legacy, 4, "he-IL", NULL), "iw", "he where the key is iw");
	CHECK_STR(pick_in(legacy, 4, "id", NULL), "in", "id where the key is in");
	CHECK_STR(BUILTIN("sr-Latn-RS"), "sr", "sr-Latn-RS: the one Serbian (primary subtag)");
	CHECK_STR(BUILTIN("zhx"), "en", "zhx is not zh: en");
	CHECK_STR(BUILTIN("es-MXX"), "es", "es-MXX is under no rule: es");
	CHECK_STR(BUILTIN("nob"), "en", "nob is not no: en");
	/* A variant is tried for each candidate before the next one. */
	CHECK_STR(pick_in(builtin, nitems(builtin), NULL,
	    "zh-HK, en;q=0.9"), "zh-TW", "Accept-Language zh-HK, en: Traditional first");
	CHECK_STR(pick_in(builtin, nitems(builtin), NULL,
	    "es-MX, es;q=0.9"), "es-419", "Accept-Language es-MX, es: es-419 before es");
}

static void
test_direction(void)
{
	static const char *const rtl[] = {
		"ar", "fa", "he", "ur", "AR", "ar-EG", "fa-IR", "he-IL", "ur-PK", "iw", "ps",
		"yi", "ckb", "dv", "pa-Arab", "az-Arab-IR", "ms-Arab-x-jawi", "sd", "ug",
	};
	static const char *const ltr[] = {
		"en", "de", "zh-TW", "ja", "hi", "ru", "tr", "ar-Latn", "sd-Deva", "ku",
		"arb", "f", "fa-", "", "-ar", "a_r", "pt-BR", "ms-Latn",
	};
	char what[80];
	size_t i;
	int ok = 1;

	for (i = 0; i < nitems(rtl); i++)
		if (strcmp(lang_direction(rtl[i]), "rtl") != 0) {
			snprintf(what, sizeof(what), "%s is right to left", rtl[i]);
			CHECK(0, what);
			ok = 0;
		}
	CHECK(ok, "ar fa he ur, their regions, iw, ps, yi, ckb, dv, sd, ug and Arab script: rtl");
	ok = 1;
	for (i = 0; i < nitems(ltr); i++)
		if (strcmp(lang_direction(ltr[i]), "ltr") != 0) {
			snprintf(what, sizeof(what), "%s is left to right", ltr[i]);
			CHECK(0, what);
			ok = 0;
		}
	CHECK(ok, "every other language, a Latin or Devanagari script subtag, malformed tags: ltr");
	CHECK_STR(lang_direction(NULL), "ltr", "NULL: ltr");
}

int
main(void)
{
	test_sources();
	test_matching();
	test_accept_syntax();
	test_limits();
	test_variants();
	test_direction();
	UNIT_DONE();
}
