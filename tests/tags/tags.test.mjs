// tags.test.mjs: issue 29's tests of the common tags as operators paste
// them (tests/tags/vendors.mjs reproduces each vendor's snippet and stages
// under its real host names), after consent.js with the built-in config
// (site t1 publishes none): nothing of a tag runs, sends or sets a cookie
// before a decision, after "Reject all" or after the reload; after "Accept
// all" each stage runs once and each hit is sent once; a returning visit
// runs it without the banner.  Then all of them in one realistic marketing
// page, in two orders, with analytics alone, with marketing alone (with
// and without Consent Mode: site t3 publishes it on), and without a site
// key; Matomo On-Premise under a site's published rule (site t2).  One
// lighttpd, one tracker server and one Chromium for the file; the flows
// run four at a time, each page on a host of its own (fN.site.test), whose
// Referer tells its requests apart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from '../browser/harness.mjs';
import { startTracker, counts } from '../browser/tracker.mjs';
import { VENDORS, SELF_HOSTED_MATOMO, GTM_CUSTOM_HTML, HOSTS, routes, requestKey, ids } from './vendors.mjs';

let srv, browser, tr, n = 0;
before(async () => {
	[srv, tr] = await Promise.all([h.startServer(), startTracker({ tls: true, routes })]);
	browser = await h.launch({ hosts: HOSTS });
	srv.ctl('site', 'add', 't2', '--name', 'Second site', '--domain', 'site2.test', '--tier', 'paid');
	const doc = h.baseConfig();
	doc.scriptRules = [{ pattern: 'matomo.example.org', category: 'analytics' }, ...doc.scriptRules];
	srv.publish(doc, 't2');
	srv.ctl('site', 'add', 't3', '--name', 'Third site', '--domain', 'site3.test', '--tier', 'paid');
	const cm = h.baseConfig();
	cm.consentRules = { ...cm.consentRules, googleConsentMode: true };
	srv.publish(cm, 't3');
	srv.file('site.js', '(window.ran = window.ran || []).push("site-js");\n');
	srv.file('site.css', 'body { font-family: sans-serif; } .map { height: 200px; }\n');
});
after(async () => { await browser?.close(); await srv?.stop(); await tr?.stop(); });

const QUIET = 400;
const SITE_JS = 'site-js';
const CATEGORIES = ['functional', 'analytics', 'marketing'];

// The head of a realistic marketing page around the tags: meta tags, the
// site's stylesheet and script, preconnects to the vendors, structured
// data.
const marketingHead = (tags) => `<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="Shoes for every season.">
<meta property="og:title" content="Spring sale"><meta property="og:type" content="website">
<link rel="canonical" href="/">
<link rel="preconnect" href="https://www.googletagmanager.com:${tr.port}">
<link rel="dns-prefetch" href="//connect.facebook.net">
<link rel="stylesheet" href="/cfg/site.css">
${tags}
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization", "name": "Test site"}</script>
<script src="/cfg/site.js"></script>`;

// A page of VENDORS after consent.js, on a host of its own.  site: the
// marketing head around them; key: the site key (null: none); allow: the
// categories the visitor will allow (what is expected of the vendors of
// those categories; the others must do nothing).
function pageOf(vendors, { site = false, key = 't1', domain = 'site.test', allow = CATEGORIES } = {}) {
	const k = ++n, host = `f${k}.${domain}`;
	const tags = vendors.map((v) => v.head(k, tr.port)).join('\n');
	const body = vendors.map((v) => (v.body ? v.body(k, tr.port) : '')).join('\n');
	const url = srv.page({ head: site ? marketingHead(tags) : tags, body, attrs: { 'data-site-key': key } })
		.replace('//site.test:', `//${host}:`);
	const on = vendors.filter((v) => allow.includes(v.category));
	const expect = (i) => {
		const c = {};
		for (const v of on) {
			for (const r of v.requests(k)) if (r[i] && allow.includes(r[3] || v.category)) c[r[0]] = (c[r[0]] || 0) + r[i];
		}
		return c;
	};
	const markup = (list) => new Set(list.flatMap((v) => (v.markup ? v.markup(k) : [])));
	return {
		k, host, url, site,
		runs: [...(site ? [SITE_JS] : []), ...on.flatMap((v) => v.runs(k)
			.filter((r) => !Array.isArray(r) || allow.includes(r[1])).map((r) => (Array.isArray(r) ? r[0] : r)))],
		markup: markup(vendors), markupOn: markup(on),
		first: expect(1), returning: expect(2),
		cookies: (firstView) => [...new Set(on.filter((v) => (!firstView || v.first !== false) &&
			allow.includes(v.cookieCategory || v.category)).flatMap((v) => v.cookies(k)))].sort(),
	};
}

const refHost = (e) => { try { return new URL(e.ref).hostname; } catch { return ''; } };
// The requests of page P logged from index SINCE on, by key: those its
// page sent (its Referer) and those of its YouTube frame (its video id).
function requested(p, since = 0) {
	const vid = ids(p.k).video;
	return counts(tr.log.slice(since).filter((e) => e.method !== 'OPTIONS' &&
		(refHost(e) === p.host || (e.path + e.query).includes(vid))).map(requestKey));
}
// The same without the scripts of the markup, which the preload scanner
// may request before consent (docs/sdk.md).
function sent(p, since = 0) {
	return Object.fromEntries(Object.entries(requested(p, since)).filter(([key]) => !p.markup.has(key)));
}
const ran = (pg) => pg.evaluate(() => (window.ran || []).slice());
const cookies = async (pg) => (await pg.context().cookies()).map((c) => c.name).filter((x) => x !== 'consent_choice').sort();

async function until(fn, ms = 6000) {
	const end = Date.now() + ms;
	while (!(await fn()) && Date.now() < end) await h.sleep(50);
}

// Nothing of P's tags ran, was requested (but the markup's scripts) or
// set a cookie.
async function nothing(pg, p, when) {
	assert.deepEqual(await ran(pg), p.site ? [SITE_JS] : [], `nothing ran ${when}`);
	assert.deepEqual(sent(p), {}, `nothing was requested ${when}`);
	for (const [key, c] of Object.entries(requested(p))) assert.ok(p.markup.has(key) && c <= 2, `${key} requested ${c} times ${when}`);
	assert.deepEqual(await cookies(pg), [], `no cookie was set ${when}`);
}

// Each stage of P's allowed tags ran once, each request of the view was
// made as often as its table says (the markup's scripts of allowed tags
// at least once, at most twice: the preload scanner's request and the
// released script's; the others' at most once), nothing else was
// requested, and the cookies are exactly those of the allowed tags.
async function once(pg, p, since, want, firstView, when) {
	await until(async () => (await ran(pg)).length >= p.runs.length &&
		Object.entries(want).every(([key, c]) => (sent(p, since)[key] || 0) >= c));
	await h.sleep(QUIET);
	assert.deepEqual(counts(await ran(pg)), counts(p.runs), `each stage ran once ${when}`);
	assert.deepEqual(sent(p, since), want, `each request was made once ${when}`);
	const all = requested(p, since);
	for (const key of p.markup) {
		const c = all[key] || 0;
		assert.ok(p.markupOn.has(key) ? c >= 1 && c <= 2 : c <= 1, `${key} requested ${c} times ${when}`);
	}
	assert.deepEqual(await cookies(pg), p.cookies(firstView), `the cookies ${when}`);
}

async function heldFlow(p) {
	const pg = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(pg, p.url);
	await h.banner(pg).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	await nothing(pg, p, 'before a decision');
	await h.button(pg, 'Reject all').click();
	await pg.waitForFunction(() => Consent.get().decided);
	await h.sleep(QUIET);
	await nothing(pg, p, 'after "Reject all"');
	await pg.reload();
	const st = await h.ready(pg);
	assert.equal(st.decided, true);
	await h.sleep(QUIET);
	await nothing(pg, p, 'after the reload');
	assert.deepEqual(pg.errors, []);
	await pg.context().close();
}

const acceptAll = (pg) => h.button(pg, 'Accept all').click();
// The dialog: only the categories of ALLOW switched on, saved.
const choose = (allow) => async (pg) => {
	await h.button(pg, 'Customize').click();
	await h.prefs(pg).waitFor({ state: 'visible' });
	for (const c of CATEGORIES) await h.prefs(pg).locator(`input[data-category="${c}"]`).setChecked(allow.includes(c));
	await h.button(pg, 'Save preferences').click();
};

// DECIDE on the first view, then the returning visit.
async function decidedFlow(p, decide = acceptAll) {
	const pg = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(pg, p.url);
	await h.banner(pg).waitFor({ state: 'visible' });
	await decide(pg);
	await once(pg, p, 0, p.first, true, 'after the decision');
	const mark = tr.log.length;
	await pg.reload();
	await h.ready(pg);
	assert.equal(await h.isShown(h.banner(pg)), false, 'no banner on the returning visit');
	await once(pg, p, mark, p.returning, false, 'on the returning visit');
	assert.deepEqual(pg.errors, []);
	await pg.context().close();
}

// Each flow is a top-level test of its own (so that each is counted and
// named in TAP), but the flows run four at a time, started by the first
// test in the order given here, the longest (the marketing pages) first:
// each test awaits its own flow's outcome.
const flows = [];
let started = false;
function start() {
	if (started) return;
	started = true;
	let next = 0;
	const worker = async () => {
		while (next < flows.length) {
			const f = flows[next++];
			f.settle(await Promise.resolve().then(f.fn).then(() => null, (e) => e));
		}
	};
	for (let i = 0; i < 4; i++) worker();
}
function flow(name, fn) {
	let settle;
	const done = new Promise((r) => { settle = r; });
	flows.push({ fn, settle });
	test(name, async () => {
		start();
		const err = await done;
		if (err) throw err;
	});
}

{
	const orders = { 'Tag Manager first': VENDORS, 'Tag Manager last': [...VENDORS].reverse() };
	for (const [order, list] of Object.entries(orders)) {
		flow(`marketing page, ${order}: "Accept all" runs every stage once and sends every hit once; a returning visit too, without the banner`,
			() => decidedFlow(pageOf(list, { site: true })));
		flow(`marketing page, ${order}: nothing of any tag before a decision, after "Reject all" or after the reload; the site's own script runs`,
			() => heldFlow(pageOf(list, { site: true })));
	}
	flow('marketing page, analytics alone chosen in the dialog: Hotjar, Clarity, Matomo and ga.js run once; Google\'s loaders, the ad pixels and the embeds\' scripts do nothing', () => {
		const allow = ['analytics'];
		return decidedFlow(pageOf(VENDORS, { site: true, allow }), choose(allow));
	});
	// The built-in config turns Consent Mode on, so that GA4 loaded by the
	// container or gtag.js (held until marketing) knows analytics was
	// refused: no _ga cookie, and its ping stopped by its own rule.
	flow('marketing page, marketing alone chosen in the dialog (the built-in config, Consent Mode on): Google\'s loaders and the ad pixels run once; GA4 neither sends its hit nor sets its analytics cookies', () => {
		const allow = ['marketing'];
		return decidedFlow(pageOf(VENDORS, { site: true, allow }), choose(allow));
	});
	flow('marketing page, marketing alone, Consent Mode on (site t3): gtag.js runs with analytics_storage denied, sets no cookie, its ping is stopped', () => {
		const allow = ['marketing'];
		return decidedFlow(pageOf(VENDORS, { site: true, allow, key: 't3', domain: 'site3.test' }), choose(allow));
	});
	flow('marketing page, Consent Mode on (site t3), "Accept all": every stage once, GA4 with its cookies and hits; a returning visit too', () =>
		decidedFlow(pageOf(VENDORS, { site: true, key: 't3', domain: 'site3.test' })));
	flow('marketing page, no site key: the SDK has no config, and nothing of any tag runs or sends, on the first view or the next', async () => {
		const p = pageOf(VENDORS, { site: true, key: null });
		const pg = await h.newPage(browser, { ignoreHTTPSErrors: true });
		const st = await h.visit(pg, p.url);
		assert.ok(st.error, 'the SDK says why it has no configuration');
		await h.sleep(QUIET);
		await nothing(pg, p, 'without a site key');
		await pg.reload();
		await h.ready(pg);
		await h.sleep(QUIET);
		await nothing(pg, p, 'on the next view');
		await pg.context().close();
	});

	for (const v of VENDORS) {
		flow(`${v.name}: nothing runs, sends or sets a cookie before a decision, after "Reject all" or after the reload`,
			() => heldFlow(pageOf([v])));
		flow(`${v.name}: "Accept all" runs each stage once and sends each hit once; a returning visit runs it without the banner`,
			() => decidedFlow(pageOf([v])));
	}

	flow(`${GTM_CUSTOM_HTML.name}: nothing of the container, its GA4 tag or Hotjar before a decision, after "Reject all" or after the reload`,
		() => heldFlow(pageOf([GTM_CUSTOM_HTML])));
	flow(`${GTM_CUSTOM_HTML.name}: "Accept all" runs each stage once, Hotjar's too; a returning visit the same, without the banner`,
		() => decidedFlow(pageOf([GTM_CUSTOM_HTML])));
	flow(`${GTM_CUSTOM_HTML.name}, marketing alone, Consent Mode on (site t3): the container and GA4's script run, the Hotjar it injects stays held by its own rule`, () => {
		const allow = ['marketing'];
		return decidedFlow(pageOf([GTM_CUSTOM_HTML], { allow, key: 't3', domain: 'site3.test' }), choose(allow));
	});

	const self = { domain: 'site2.test', key: 't2' };
	flow('Matomo On-Premise under the site\'s published rule (site t2): held before a decision, after "Reject all" and after the reload',
		() => heldFlow(pageOf([SELF_HOSTED_MATOMO], self)));
	flow('Matomo On-Premise under the site\'s published rule: "Accept all" runs it once; a returning visit without the banner',
		() => decidedFlow(pageOf([SELF_HOSTED_MATOMO], self)));
	flow('Matomo On-Premise with the built-in config alone: no rule names its host, it runs once the config has arrived (the site must publish one)', async () => {
		const p = pageOf([SELF_HOSTED_MATOMO]);
		const pg = await h.newPage(browser, { ignoreHTTPSErrors: true });
		await h.visit(pg, p.url);
		await h.banner(pg).waitFor({ state: 'visible' });
		await until(async () => (await ran(pg)).includes('matomo'));
		assert.deepEqual(await ran(pg), ['matomo']);
		await pg.context().close();
	});
}
