/* test_texts.c: the built-in texts of every language (common/config/i18n, issue 12): complete, clean, each its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config/defaults.h"
#include "input/lang.h"
#include "base/limits.h"
#include "base/nitems.h"
#include "unit.h"
#include "input/valid.h"


enum script { LATIN, GREEK, CYRILLIC, HEBREW, ARABIC, DEVANAGARI, BENGALI, THAI, HANGUL,
	KANA, HAN, OTHER };
static const char *const script_names[] = { "Latin", "Greek", "Cyrillic", "Hebrew", "Arabic",
	"Devanagari", "Bengali", "Thai", "Hangul", "Japanese", "Han" };

/*
 * The languages issue 12 asks for, with the script each is written in: the
 * 24 official languages of the EU, the other languages of the gdpr region
 * and its neighbours, and the large languages of the web.
 */
static const struct {
	const char *code;
	enum script script;
} wanted[] = {
	{"bg", CYRILLIC}, {"cs", LATIN}, {"da", LATIN}, {"de", LATIN}, {"el", GREEK},
	{"en", LATIN}, {"es", LATIN}, {"et", LATIN}, {"fi", LATIN}, {"fr", LATIN},
	{"ga", LATIN}, {"hr", LATIN}, {"hu", LATIN}, {"it", LATIN}, {"lt", LATIN},
	{"lv", LATIN}, {"mt", LATIN}, {"nl", LATIN}, {"pl", LATIN}, {"pt", LATIN},
	{"ro", LATIN}, {"sk", LATIN}, {"sl", LATIN}, {"sv", LATIN},
	{"is", LATIN}, {"nb", LATIN}, {"nn", LATIN}, {"ca", LATIN}, {"eu", LATIN},
	{"gl", LATIN}, {"sq", LATIN}, {"sr", CYRILLIC}, {"mk", CYRILLIC}, {"bs", LATIN},
	{"uk", CYRILLIC}, {"tr", LATIN},
	{"ar", ARABIC}, {"fa", ARABIC}, {"he", HEBREW}, {"ur", ARABIC}, {"hi", DEVANAGARI},
	{"bn", BENGALI}, {"id", LATIN}, {"ja", KANA}, {"ko", HANGUL}, {"ms", LATIN},
	{"ru", CYRILLIC}, {"th", THAI}, {"vi", LATIN}, {"zh-CN", HAN}, {"zh-TW", HAN},
	{"pt-BR", LATIN}, {"es-419", LATIN},
};

/*
 * Texts that may equal the English one: words these languages use as they
 * are ("Marketing" is the name of the category in German, Dutch, French,
 * Spanish, Portuguese, Italian, Danish, Hungarian, Maltese, Romanian and
 * Albanian; "Cookies" and "OK" are the international words).  Any other
 * text equal to English is an untranslated copy.
 */
static const char *const same_as_english[] = { "Cookies", "Marketing", "OK" };

/* Marks of a template, of markup or of a draft: nothing of the kind is
 * shown as it is (the SDK sets text, never HTML). */
static const char *const markers[] = {
	"{{", "}}", "${", "%s", "%d", "%1", "%(", "<", ">", "&#", "&amp", "&nbsp", "&quot",
	"&lt", "&gt", "\\", "TODO", "FIXME", "XXX", "TBD", "lorem", "Lorem", "__",
};

/* Bracket pairs that must nest, and pairs that must only be as many
 * (Danish and Swedish quote »so«, French and Spanish «so»). */
static const unsigned nesting[][2] = {
	{'(', ')'}, {'[', ']'}, {'{', '}'}, {0xFF08, 0xFF09}, {0x300C, 0x300D},
	{0x300E, 0x300F}, {0x3010, 0x3011}, {0x300A, 0x300B}, {0x3008, 0x3009},
};
static const unsigned counted[][2] = { {0xAB, 0xBB}, {0x2039, 0x203A} };

/*
 * Characters of one form of Chinese only, in pairs (Simplified, then
 * Traditional): 们們 这這 关關 设設 择擇 个個 据據 选選 网網 规規 录錄 统統
 * 广廣 务務 显顯 为為 时時 会會 将將 实實 访訪 问問 应應 项項 经經 种種 优優
 * 体體 认認 让讓 计計 识識 证證 语語 读讀 资資 过過 还還 进進 连連 门門 间間
 * 闭閉 开開 无無 线線 给給 级級 络絡 续續 发發 样樣 总總 变變 权權 与與 隐隱
 * 护護 营營 销銷 页頁 获獲 帮幫 储儲 载載 视視 频頻 图圖 记記 号號 绝絕 览覽
 * 启啟 务務 动動 户戶 确確 认認 储儲 仅僅 称稱 类類 须須.
 */
static const char chinese_pairs[] =
	"们們这這关關设設择擇个個据據选選网網规規录錄统統广廣务務显顯为為时時会會将將"
	"实實访訪问問应應项項经經种種优優体體认認让讓计計识識证證语語读讀资資过過还還"
	"进進连連门門间間闭閉开開无無线線给給级級络絡续續发發样樣总總变變权權与與隐隱"
	"护護营營销銷页頁获獲帮幫储儲载載视視频頻图圖记記号號绝絕览覽启啟动動户戶确確"
	"仅僅称稱类類须須";

#define TEXTS_MAX 64
#define PATH_MAX_ 96
#define SHARED_MAX 3       /* texts of more than 12 characters two languages may share */
#define SHARED_MIN_CHARS 12

/* One text of a translation: its path ("banner.title") and its value
 * (NULL when the member is not a string). */
struct text {
	char path[PATH_MAX_];
	const char *s;
};

struct lang {
	const char *code;
	const cJSON *tr;
	struct text t[TEXTS_MAX];
	int n;                  /* -1: more than TEXTS_MAX leaves */
};

/* Every leaf of obj under prefix into l; objects are walked, anything else
 * is a leaf. */
static void
flatten(const cJSON *obj, const char *prefix, struct lang *l)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, obj) {
		char path[PATH_MAX_];

		snprintf(path, sizeof(path), "%s%s%s", prefix, prefix[0] ? "." : "",
		    e->string ? e->string : "?");
		if (cJSON_IsObject(e)) {
			flatten(e, path, l);
			continue;
		}
		if (l->n < 0 || l->n >= TEXTS_MAX) {
			l->n = -1;
			return;
		}
		snprintf(l->t[l->n].path, sizeof(l->t[l->n].path), "%s", path);
		l->t[l->n].s = cJSON_IsString(e) ? e->valuestring : NULL;
		l->n++;
	}
}

/* The text of l at path, or NULL. */
static const char *
text_at(const struct lang *l, const char *path)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->t[i].path, path) == 0)
			return l->t[i].s;
	return NULL;
}

/* The code point at *s (valid UTF-8, checked before), advancing *s. */
static unsigned
next_cp(const char **s)
{
	const unsigned char *p = (const unsigned char *)*s;
	unsigned c = p[0];
	int n = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;

	if (n > 0)
		c &= 0x3F >> n;
	for (int i = 1; i <= n; i++)
		c = (c << 6) | (p[i] & 0x3F);
	*s += n + 1;
	return c;
}

static enum script
script_of(unsigned c)
{
	if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7) || (c >= 0x1E00 && c <= 0x1EFF))
		return LATIN;
	if (c >= 0x370 && c <= 0x3FF)
		return GREEK;
	if (c >= 0x400 && c <= 0x52F)
		return CYRILLIC;
	if (c >= 0x591 && c <= 0x5F4)
		return HEBREW;
	if ((c >= 0x620 && c <= 0x6FF && c != 0x640) || (c >= 0x750 && c <= 0x77F) ||
	    (c >= 0xFB50 && c <= 0xFDFF) || (c >= 0xFE70 && c <= 0xFEFF))
		return ARABIC;
	if (c >= 0x900 && c <= 0x97F && c != 0x964 && c != 0x965)
		return DEVANAGARI;
	if (c >= 0x980 && c <= 0x9FF)
		return BENGALI;
	if (c >= 0xE01 && c <= 0xE5B)
		return THAI;
	if ((c >= 0xAC00 && c <= 0xD7AF) || (c >= 0x1100 && c <= 0x11FF) || (c >= 0x3130 && c <= 0x318F))
		return HANGUL;
	if (c >= 0x3041 && c <= 0x30FF && c != 0x30FB)
		return KANA;
	if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF))
		return HAN;
	return OTHER;
}

/* Code points of a valid UTF-8 string. */
static long
chars_of(const char *s)
{
	long n = valid_utf8_chars(s);

	return n < 0 ? 0 : n;
}

static int
is_exception(const char *s)
{
	for (size_t i = 0; i < nitems(same_as_english); i++)
		if (strcmp(s, same_as_english[i]) == 0)
			return 1;
	return 0;
}

/* Whether every opening bracket of s is closed after it, every closing one
 * opened before, and the counted pairs and the quotes are as many. */
static int
balanced(const char *s)
{
	int depth[nitems(nesting)] = {0}, count[nitems(counted)] = {0}, straight = 0, curly = 0;
	size_t i;

	while (*s != '\0') {
		unsigned c = next_cp(&s);

		for (i = 0; i < nitems(nesting); i++) {
			if (c == nesting[i][0])
				depth[i]++;
			else if (c == nesting[i][1] && --depth[i] < 0)
				return 0;
		}
		for (i = 0; i < nitems(counted); i++)
			count[i] += c == counted[i][0] ? 1 : c == counted[i][1] ? -1 : 0;
		straight += c == '"';
		curly += c == 0x201C || c == 0x201D || c == 0x201E;
	}
	for (i = 0; i < nitems(nesting); i++)
		if (depth[i] != 0)
			return 0;
	for (i = 0; i < nitems(counted); i++)
		if (count[i] != 0)
			return 0;
	return straight % 2 == 0 && curly % 2 == 0;
}

/* Report a failed rule of language code with its first offending text. */
static void
result(int ok, const char *code, const char *rule, const char *path, const char *s)
{
	char what[512];

	if (ok)
		snprintf(what, sizeof(what), "%s: %s", code, rule);
	else
		snprintf(what, sizeof(what), "%s: %s: %s is \"%.120s\"", code, rule,
		    path ? path : "?", s ? s : "(not a string)");
	CHECK(ok, what);
}

/* The keys of en, no more, no fewer, every one a string. */
static void
check_keys(const struct lang *l, const struct lang *en)
{
	const char *bad = NULL;
	int i;

	if (l->n != en->n)
		bad = l->n < 0 ? "(too many texts)" : "(a different number of texts)";
	for (i = 0; bad == NULL && i < en->n; i++)
		if (text_at(l, en->t[i].path) == NULL)
			bad = en->t[i].path;
	result(bad == NULL, l->code, "every text of en, no other, each a string", bad, NULL);
}

static void
check_each(const struct lang *l, const struct lang *en, enum script script)
{
	const char *bad_text = NULL, *bad_utf8 = NULL, *bad_en = NULL, *bad_bal = NULL,
	    *bad_mark = NULL;
	const char *p_text = NULL, *p_utf8 = NULL, *p_en = NULL, *p_bal = NULL, *p_mark = NULL;
	long letters = 0, own = 0, kana = 0;
	char rule[160];

	for (int i = 0; i < l->n; i++) {
		const char *s = l->t[i].s, *e;

		if (s == NULL)
			continue;
		if (bad_text == NULL && (s[0] == '\0' || s[0] == ' ' || s[strlen(s) - 1] == ' ' ||
		    strstr(s, "  ") != NULL || strpbrk(s, "\t\r\n\v\f") != NULL ||
		    valid_text_chars(s, 0) < 0))
			bad_text = s, p_text = l->t[i].path;
		if (valid_utf8_chars(s) < 0) {
			if (bad_utf8 == NULL)
				bad_utf8 = s, p_utf8 = l->t[i].path;
			continue;
		}
		e = text_at(en, l->t[i].path);
		if (bad_en == NULL && l != en && e != NULL && strcmp(s, e) == 0 && !is_exception(s))
			bad_en = s, p_en = l->t[i].path;
		if (bad_bal == NULL && !balanced(s))
			bad_bal = s, p_bal = l->t[i].path;
		for (size_t m = 0; bad_mark == NULL && m < nitems(markers); m++)
			if (strstr(s, markers[m]) != NULL)
				bad_mark = s, p_mark = l->t[i].path;
		for (const char *q = s; *q != '\0';) {
			enum script sc = script_of(next_cp(&q));
			if (sc == OTHER)
				continue;
			letters++;
			own += sc == script || (script == KANA && sc == HAN);
			kana += sc == KANA;
		}
	}
	result(bad_text == NULL, l->code,
	    "every text non-empty, no control character, no space at an end or doubled", p_text, bad_text);
	result(bad_utf8 == NULL, l->code, "valid UTF-8", p_utf8, bad_utf8);
	if (l != en)
		result(bad_en == NULL, l->code,
		    "no text equal to English but Cookies, Marketing and OK", p_en, bad_en);
	result(bad_bal == NULL, l->code, "brackets and quotes balanced", p_bal, bad_bal);
	result(bad_mark == NULL, l->code,
	    "no template marker, markup or draft mark ({{ }} ${ %s < > & \\ TODO ...)", p_mark, bad_mark);
	snprintf(rule, sizeof(rule), "%s: written in %s script (%ld of %ld letters%s)", l->code,
	    script_names[script], own, letters, script == KANA ? ", kana among them" : "");
	CHECK(letters > 0 && own * 100 >= letters * 85 && (script != KANA || kana * 10 >= letters),
	    rule);
	snprintf(rule, sizeof(rule), "%s: resolvedDirection %s, as its script is written", l->code,
	    script == ARABIC || script == HEBREW ? "rtl" : "ltr");
	CHECK(strcmp(lang_direction(l->code), script == ARABIC || script == HEBREW ? "rtl" : "ltr") == 0,
	    rule);
	{
		const char *own_reject = text_at(l, "modelOverrides.opt_out.rejectAllText");
		const char *reject = text_at(l, "banner.rejectAllText");
		snprintf(rule, sizeof(rule), "%s: opt_out has its own rejectAllText "
		    "(the US laws' \"do not sell or share\")", l->code);
		CHECK(own_reject != NULL && reject != NULL && strcmp(own_reject, reject) != 0, rule);
	}
}

/* Whether the code point c occurs in s. */
static int
has_cp(const char *s, unsigned c)
{
	while (*s != '\0')
		if (next_cp(&s) == c)
			return 1;
	return 0;
}

/* zh-CN holds none of the Traditional forms, zh-TW none of the Simplified. */
static void
check_chinese(const struct lang *l, int traditional)
{
	const char *bad = NULL, *path = NULL;
	unsigned found = 0;
	int pairs = 0;
	char what[256];

	for (const char *p = chinese_pairs; *p != '\0'; pairs++) {
		unsigned simp = next_cp(&p), trad = next_cp(&p);
		unsigned other = traditional ? simp : trad;

		for (int i = 0; bad == NULL && i < l->n; i++)
			if (l->t[i].s != NULL && valid_utf8_chars(l->t[i].s) >= 0 &&
			    has_cp(l->t[i].s, other))
				bad = l->t[i].s, path = l->t[i].path, found = other;
	}
	snprintf(what, sizeof(what), "%s: %s characters (none of %d %s forms)%s%s%s", l->code,
	    traditional ? "Traditional" : "Simplified", pairs,
	    traditional ? "Simplified" : "Traditional", bad ? ": " : "", bad ? path : "",
	    bad ? " has one" : "");
	(void)found;
	CHECK(bad == NULL, what);
}

/* No other language shares more than SHARED_MAX of l's texts longer than
 * SHARED_MIN_CHARS characters: no language is a copy of another. */
static void
check_own(const struct lang *l, const struct lang *all, size_t n)
{
	const char *worst = NULL;
	int most = 0;
	char what[256];

	for (size_t o = 0; o < n; o++) {
		int same = 0;

		if (&all[o] == l || all[o].n <= 0)
			continue;
		for (int i = 0; i < l->n; i++) {
			const char *s = l->t[i].s, *t = text_at(&all[o], l->t[i].path);
			if (s != NULL && t != NULL && strcmp(s, t) == 0 && chars_of(s) > SHARED_MIN_CHARS)
				same++;
		}
		if (same > most)
			most = same, worst = all[o].code;
	}
	snprintf(what, sizeof(what), "%s: its own texts (at most %d of more than %d characters "
	    "shared with another language; most: %d%s%s)", l->code, SHARED_MAX, SHARED_MIN_CHARS,
	    most, worst ? " with " : "", worst ? worst : "");
	CHECK(most <= SHARED_MAX, what);
}

int
main(void)
{
	cJSON *doc = defaults_config();
	const cJSON *tr = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc,
	    "content"), "translations");
	const cJSON *regions = cJSON_GetObjectItemCaseSensitive(doc, "regions");
	struct lang *langs = calloc(nitems(wanted), sizeof(*langs));
	const struct lang *en = NULL;
	size_t i, n = 0, nbuilt = 0;
	char what[256];

	CHECK(doc != NULL && langs != NULL, "the built-in document");
	if (doc == NULL || langs == NULL) {
		free(langs);
		cJSON_Delete(doc);
		UNIT_DONE();
	}
	while (defaults_language(nbuilt) != NULL)
		nbuilt++;
	for (i = 0; i < nitems(wanted); i++) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(tr, wanted[i].code);

		snprintf(what, sizeof(what), "%s: built in", wanted[i].code);
		CHECK(cJSON_IsObject(t), what);
		langs[i].code = wanted[i].code;
		langs[i].tr = t;
		if (t != NULL) {
			flatten(t, "", &langs[i]);
			n++;
		}
		if (strcmp(wanted[i].code, "en") == 0)
			en = &langs[i];
	}
	snprintf(what, sizeof(what), "the %zu languages of issue 12 and no other (%zu built in)",
	    nitems(wanted), nbuilt);
	CHECK(n == nitems(wanted) && nbuilt == n, what);
	snprintf(what, sizeof(what), "within the publish limits: %zu languages <= LANGS_MAX (%d), "
	    "%zu prepared answers <= PREPARED_ANSWERS_MAX (%d)", nbuilt, LANGS_MAX,
	    (size_t)(cJSON_GetArraySize(regions) + 1) * nbuilt, PREPARED_ANSWERS_MAX);
	CHECK(nbuilt <= LANGS_MAX &&
	    (size_t)(cJSON_GetArraySize(regions) + 1) * nbuilt <= PREPARED_ANSWERS_MAX, what);
	CHECK(en != NULL && en->n > 20, "en: the reference, more than 20 texts");
	if (en == NULL || en->n <= 0) {
		free(langs);
		cJSON_Delete(doc);
		UNIT_DONE();
	}
	for (i = 0; i < nitems(wanted); i++) {
		if (langs[i].tr == NULL)
			continue;
		check_keys(&langs[i], en);
		check_each(&langs[i], en, wanted[i].script);
		if (strcmp(langs[i].code, "zh-CN") == 0 || strcmp(langs[i].code, "zh-TW") == 0)
			check_chinese(&langs[i], strcmp(langs[i].code, "zh-TW") == 0);
		check_own(&langs[i], langs, nitems(wanted));
	}
	free(langs);
	cJSON_Delete(doc);
	UNIT_DONE();
}
