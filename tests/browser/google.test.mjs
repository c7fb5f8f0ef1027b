// google.test.mjs: issue 29 (b), Google's tags strict by default.  gtag.js
// (parser-inserted, async, as Google's snippet has it) and a Tag Manager
// container (inserted by Google's GTM snippet) under their real host,
// www.googletagmanager.com (launch({hosts}) maps it to tracker.mjs): the
// built-in rule holds them until marketing is allowed; with
// consentRules.googleConsentModeAdvanced the SDK lets them load at once,
// after Consent Mode's denied defaults (SDK.md 7's order), though the
// config answer carries the document's rules for them.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';
import { startTracker, ran, counts, waitRan } from './tracker.mjs';

const GTM = 'www.googletagmanager.com';
let srv, browser, tr;
before(async () => {
	[srv, tr] = await Promise.all([h.startServer(), startTracker({ tls: true })]);
	browser = await h.launch({ hosts: [GTM] });
});
after(async () => { await browser?.close(); await srv?.stop(); await tr?.stop(); });

let seq = 0;
const QUIET = 400;

// The built-in config (its rules: googletagmanager.com is marketing) with
// Consent Mode on, and more consentRules.
function config(rules = {}) {
	const doc = h.modelConfig('opt_in');
	doc.consentRules = { ...doc.consentRules, googleConsentMode: true, ...rules };
	return doc;
}

// Google's two snippets, the tags named PREFIX-gtag and PREFIX-gtm; each,
// when it runs, pushes ['tag-ran', NAME], sets the cookie NAME and sends
// its hit (tracker.mjs ?tag=1).
function snippets() {
	const p = `g${++seq}`;
	const n = { gtag: `${p}-gtag`, gtm: `${p}-gtm` };
	const html = `<script async src="${tr.js(GTM, n.gtag, 'tag=1&dl=1')}"></script>
<script>
window.dataLayer = window.dataLayer || [];
function gtag(){dataLayer.push(arguments);}
gtag('js', new Date());
gtag('config', 'G-TEST');
</script>
<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':
new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],
j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src=
i+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer',${JSON.stringify(tr.js(GTM, n.gtm, 'tag=1&dl=1'))});</script>`;
	return { n, html, tags: [n.gtag, n.gtm] };
}

const hitsOf = (s) => ({ gtm: tr.hits(s.n.gtm), gtagHit: tr.hits(`${s.n.gtag}-hit`), gtmHit: tr.hits(`${s.n.gtm}-hit`) });
const NONE = { gtm: 0, gtagHit: 0, gtmHit: 0 };
const cookies = async (page) => (await page.context().cookies()).map((c) => c.name).filter((x) => /^g\d+-/.test(x)).sort();
const dataLayer = (page) => page.evaluate(() => (window.dataLayer || []).map((e) => (e && typeof e.length === 'number' ? Array.from(e) : e)));
const isCmd = (kind) => (e) => Array.isArray(e) && e[0] === 'consent' && e[1] === kind;
const isTag = (name) => (e) => Array.isArray(e) && e[0] === 'tag-ran' && e[1] === name;


test('strict by default: gtag.js and the container neither run nor send before a decision, after "Reject all", after the reload, nor with analytics alone', async () => {
	srv.publish(config());
	const s = snippets();
	const page = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(page, srv.page({ head: s.html }));
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'nothing ran before a decision');
	assert.deepEqual(hitsOf(s), NONE, 'the container was not requested, no hit was sent');
	assert.deepEqual(await cookies(page), []);
	await h.button(page, 'Reject all').click();
	await page.waitForFunction(() => Consent.get().decided);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'nor after "Reject all"');
	assert.deepEqual(hitsOf(s), NONE);
	await page.reload();
	await h.ready(page);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'nor on the reload');
	assert.deepEqual(hitsOf(s), NONE);
	await page.evaluate(() => Consent.save({ analytics: true }));
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'analytics alone does not release them: the container may carry marketing tags');
	assert.deepEqual(hitsOf(s), NONE);
	assert.deepEqual(await cookies(page), []);
	console.log(`gtag.js (parser-inserted) requested ${tr.hits(s.n.gtag)} time(s) by the preload scanner, never run`);
	await page.context().close();
});

test('strict by default: "Accept all" runs each once, after the Consent Mode default and update; a returning visit runs them at once, without the banner', async () => {
	srv.publish(config());
	const s = snippets();
	const page = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(page, srv.page({ head: s.html }));
	await h.button(page, 'Accept all').click();
	await waitRan(page, s.tags);
	await h.sleep(QUIET);
	assert.deepEqual(counts(await ran(page)), { [s.n.gtag]: 1, [s.n.gtm]: 1 }, 'each ran once');
	assert.deepEqual(hitsOf(s), { gtm: 1, gtagHit: 1, gtmHit: 1 }, 'the container requested once, each hit sent once');
	assert.deepEqual(await cookies(page), [s.n.gtag, s.n.gtm].sort());
	let dl = await dataLayer(page);
	const d = dl.findIndex(isCmd('default')), u = dl.findIndex(isCmd('update'));
	for (const t of s.tags) {
		const i = dl.findIndex(isTag(t));
		assert.ok(d >= 0 && u > d && i > u, `default, update (granted), then ${t}: ${JSON.stringify(dl)}`);
	}
	assert.equal(dl[u][2].ad_storage, 'granted');
	await page.reload();
	await h.ready(page);
	await waitRan(page, s.tags);
	await h.sleep(QUIET);
	assert.equal(await h.isShown(h.banner(page)), false, 'no banner on the returning visit');
	assert.deepEqual(counts(await ran(page)), { [s.n.gtag]: 1, [s.n.gtm]: 1 }, 'each ran once on the returning visit');
	dl = await dataLayer(page);
	for (const t of s.tags) {
		assert.ok(dl.findIndex(isCmd('update')) < dl.findIndex(isTag(t)), `the stored decision's update before ${t}`);
	}
	await page.context().close();
});

test('googleConsentModeAdvanced: the SDK passes the tags at once, before any decision, after the denied defaults, though the answer\'s rules name them', async () => {
	srv.publish(config({ googleConsentModeAdvanced: true }));
	const s = snippets();
	const page = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(page, srv.page({ head: s.html }));
	const answer = await (await h.apiRequests(page, 'config')[0].response()).json();
	assert.deepEqual(answer.scriptRules.filter((r) => r.pattern === 'googletagmanager.com'),
		[{ pattern: 'googletagmanager.com', category: 'marketing' }], 'the answer carries the document\'s rules (CONTRACT 5.6)');
	assert.equal(answer.config.consentRules.googleConsentModeAdvanced, true);
	await h.banner(page).waitFor({ state: 'visible' });
	await waitRan(page, s.tags);
	assert.deepEqual(counts(await ran(page)), { [s.n.gtag]: 1, [s.n.gtm]: 1 }, 'both ran before any decision');
	const dl = await dataLayer(page);
	const d = dl.findIndex(isCmd('default'));
	assert.ok(d >= 0, `a default command: ${JSON.stringify(dl)}`);
	assert.equal(dl[d][2].ad_storage, 'denied');
	assert.equal(dl[d][2].analytics_storage, 'denied');
	for (const t of s.tags) assert.ok(d < dl.findIndex(isTag(t)), `the denied default before ${t}`);
	assert.equal(dl.findIndex(isCmd('update')), -1, 'no update before a decision');
	await page.context().close();
});

test('googleConsentModeAdvanced: after "Reject all" a returning visit runs the tags at once, after the default and the denied update', async () => {
	srv.publish(config({ googleConsentModeAdvanced: true }));
	const s = snippets();
	const page = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(page, srv.page({ head: s.html }));
	await h.button(page, 'Reject all').click();
	await page.waitForFunction(() => Consent.get().decided);
	await page.reload();
	await h.ready(page);
	await waitRan(page, s.tags);
	assert.deepEqual(counts(await ran(page)), { [s.n.gtag]: 1, [s.n.gtm]: 1 }, 'both ran on the returning visit');
	const dl = await dataLayer(page);
	const u = dl.findIndex(isCmd('update'));
	assert.ok(dl.findIndex(isCmd('default')) >= 0 && u > dl.findIndex(isCmd('default')), `default, then update: ${JSON.stringify(dl)}`);
	assert.equal(dl[u][2].ad_storage, 'denied');
	for (const t of s.tags) assert.ok(u < dl.findIndex(isTag(t)), `the stored decision's update before ${t}`);
	await page.context().close();
});
