// signals.test.mjs: SDK.md 7, Google Consent Mode v2 in window.dataLayer
// relative to a tag's own push, and Global Privacy Control (the
// navigator.globalPrivacyControl of an init script and the Sec-GPC: 1
// header) in an opt_out region, down to the export.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';
import { startTracker, ran, withRules } from './tracker.mjs';

let srv, browser, tr;
before(async () => {
	[srv, tr] = await Promise.all([h.startServer(), startTracker()]);
	browser = await h.launch();
});
after(async () => { await browser?.close(); await srv?.stop(); await tr?.stop(); });

let seq = 0;
const uniq = (s) => `${s}${++seq}`;

// window.dataLayer as plain arrays (gtag pushes its arguments object).
const dataLayer = (page) => page.evaluate(() => (window.dataLayer || []).map((e) => Array.from(e)));
const indexOf = (dl, pred) => dl.findIndex(pred);
const isCmd = (kind) => (e) => e[0] === 'consent' && e[1] === kind;
const isTag = (name) => (e) => e[0] === 'tag-ran' && e[1] === name;

async function waitTag(page, name, ms = 5000) {
	await page.waitForFunction((n) => (window.dataLayer || []).some((e) => e[0] === 'tag-ran' && e[1] === n),
		name, { timeout: ms }).catch(() => {});
}

function gcmConfig(mapping) {
	const doc = withRules(h.modelConfig('opt_in'));
	doc.consentRules = { ...doc.consentRules, googleConsentMode: mapping };
	return doc;
}
const MAP = { analytics_storage: 'analytics', ad_storage: 'marketing' };

test('Consent Mode, object mapping, first visit: consent default (only its types, security_storage, wait_for_update 500; values per state) before a released tag\'s own push, and no update before a decision', async () => {
	srv.publish(gcmConfig(MAP));
	const free = uniq('gfree'), held = uniq('gheld'), inl = uniq('ginl');
	const page = await h.newPage(browser);
	// gtm.test matches no rule (released when the config arrives),
	// tracker.test the analytics rule (held); before them an inline tag
	// marked necessary runs as soon as the config has arrived.
	await h.visit(page, srv.page({ head: `<script type="text/plain" data-consent="necessary">(window.dataLayer = window.dataLayer || []).push(['tag-ran', '${inl}']);</script>
<script src="${tr.js('gtm.test', free, 'dl=1')}"></script>
<script src="${tr.js('tracker.test', held, 'dl=1')}"></script>` }));
	await waitTag(page, free);
	await waitTag(page, inl);
	await h.sleep(200);
	const dl = await dataLayer(page);
	assert.equal(await page.evaluate(() => typeof window.gtag), 'function', 'window.gtag is defined');
	const d = indexOf(dl, isCmd('default'));
	assert.ok(d >= 0, `a consent default command: ${JSON.stringify(dl)}`);
	assert.deepEqual(dl[d][2], { analytics_storage: 'denied', ad_storage: 'denied', security_storage: 'granted', wait_for_update: 500 });
	const t = indexOf(dl, isTag(free));
	assert.ok(t >= 0, 'the unmatched tag ran');
	assert.ok(d < t, `default before the tag's push: ${JSON.stringify(dl)}`);
	const ti = indexOf(dl, isTag(inl));
	assert.ok(ti >= 0 && d < ti, `default before the inline marked tag's push: ${JSON.stringify(dl)}`);
	assert.equal(indexOf(dl, isTag(held)), -1, 'the held tag did not run');
	assert.equal(indexOf(dl, isCmd('update')), -1, 'no update before a decision');
	assert.equal(dl.filter(isCmd('default')).length, 1, 'one default command');
	await page.context().close();
});

test('Consent Mode, object mapping: consent update after a decision (banner "Accept all"), before the released tag\'s push', async () => {
	srv.publish(gcmConfig(MAP));
	const held = uniq('gheld'), inl = uniq('ginl');
	const page = await h.newPage(browser);
	// An inline tag marked analytics (run as soon as it is released) and
	// a tracker.test one (held by the analytics rule).
	await h.visit(page, srv.page({ head: `<script type="text/plain" data-consent="analytics">(window.dataLayer = window.dataLayer || []).push(['tag-ran', '${inl}']);</script>
<script src="${tr.js('tracker.test', held, 'dl=1')}"></script>` }));
	await h.button(page, 'Accept all').click();
	await waitTag(page, held);
	const dl = await dataLayer(page);
	const d = indexOf(dl, isCmd('default')), u = indexOf(dl, isCmd('update'));
	assert.ok(d >= 0 && u > d, `default then update: ${JSON.stringify(dl)}`);
	assert.deepEqual(dl[u][2], { analytics_storage: 'granted', ad_storage: 'granted', security_storage: 'granted' });
	for (const n of [inl, held]) {
		assert.ok(indexOf(dl, isTag(n)) > u, `the tag ${n} pushed after the update: ${JSON.stringify(dl)}`);
	}
	assert.equal(dl.filter((e) => e[0] === 'tag-ran').length, 2, 'each tag ran once');
	await page.evaluate(() => Consent.save({ marketing: true }));
	const dl2 = await dataLayer(page);
	assert.equal(dl2.filter(isCmd('update')).length, 2, 'an update after every decision');
	await page.context().close();
});

test('Consent Mode, default mapping (true), returning visitor: default and update at load, before the config answer and before an allowed tag\'s push', async () => {
	srv.publish(gcmConfig(true));
	const tag = uniq('gret');
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await page.evaluate(() => Consent.save({ analytics: true, marketing: false, functional: false }));
	let open;
	const gate = new Promise((r) => { open = r; });
	await page.route(/\/functions\/v1\/config\b/, async (route) => { await gate; await route.continue(); });
	await page.goto(srv.page({ head: `<script src="${tr.js('tracker.test', tag, 'dl=1')}"></script>` }), { waitUntil: 'domcontentloaded' });
	await waitTag(page, tag, 3000);
	const dl = await dataLayer(page);
	open();
	await h.ready(page);
	const d = indexOf(dl, isCmd('default')), u = indexOf(dl, isCmd('update')), t = indexOf(dl, isTag(tag));
	assert.ok(t >= 0, 'the allowed tag ran before the config answer');
	assert.ok(d >= 0 && u > d && t > u, `default, update, then the tag: ${JSON.stringify(dl)}`);
	const want = {
		analytics_storage: 'granted', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied',
		functionality_storage: 'denied', personalization_storage: 'denied', security_storage: 'granted',
	};
	assert.deepEqual(dl[u][2], want, 'the update holds the stored decision, default mapping');
	assert.deepEqual(dl[d][2], { ...want, wait_for_update: 500 }, 'the default holds the current state, default mapping');
	await page.context().close();
});

// A page in a context with Global Privacy Control: the init script the
// issue names and the Sec-GPC: 1 header on every request.
async function gpcPage() {
	const page = await h.newPage(browser, { extraHTTPHeaders: { 'Sec-GPC': '1' } });
	await page.context().addInitScript(() => {
		Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });
	});
	return page;
}

function gpcConfig(honorGpc) {
	const doc = withRules(h.modelConfig('opt_out'));
	if (honorGpc !== undefined) doc.consentRules = { ...doc.consentRules, honorGpc };
	return doc;
}

const NONE = { necessary: true, functional: false, analytics: false, marketing: false };
const ALL = { necessary: true, functional: true, analytics: true, marketing: true };

test('GPC in an opt_out region: opt_out categories start not allowed, get().gpc is true, their trackers are held', async () => {
	srv.publish(gpcConfig());
	const t = uniq('gpc');
	const page = await gpcPage();
	const st = await h.visit(page, srv.page({ head: `<script src="${tr.js('tracker.test', t)}"></script>` }));
	assert.equal(await page.evaluate(() => navigator.globalPrivacyControl), true);
	assert.equal(st.gpc, true);
	assert.deepEqual(st.categories, NONE);
	assert.equal(await page.evaluate(() => Consent.allowed('analytics')), false);
	await h.sleep(300);
	assert.deepEqual(await ran(page), [], 'the analytics tracker did not run');
	// The control: the same config without the signal allows them.
	const plain = await h.newPage(browser);
	const st2 = await h.visit(plain, srv.page());
	assert.equal(st2.gpc, false);
	assert.deepEqual(st2.categories, ALL);
	await plain.context().close();
	await page.context().close();
});

test('GPC: "Accept all" does not turn opt_out categories on', async () => {
	srv.publish(gpcConfig());
	const t = uniq('gpc');
	const page = await gpcPage();
	await h.visit(page, srv.page({ head: `<script src="${tr.js('tracker.test', t)}"></script>` }));
	await h.button(page, 'Accept all').click();
	await page.waitForFunction(() => Consent.get().decided);
	const st = await page.evaluate(() => Consent.get());
	assert.equal(st.gpc, true);
	assert.deepEqual(st.categories, NONE);
	await h.sleep(300);
	assert.deepEqual(await ran(page), []);
	await page.context().close();
});

test('GPC: an explicit switch in the preferences dialog turns a category on', async () => {
	srv.publish(gpcConfig());
	const t = uniq('gpc');
	const page = await gpcPage();
	await h.visit(page, srv.page({ head: `<script src="${tr.js('tracker.test', t)}"></script>` }));
	await h.banner(page).waitFor({ state: 'visible' });
	await h.banner(page).getByRole('button').nth(2).click();
	await h.prefs(page).waitFor({ state: 'visible' });
	const sw = h.prefs(page).locator('input[data-category="analytics"]');
	assert.equal(await sw.isChecked(), false, 'the switch starts off under GPC');
	await sw.check();
	await h.prefs(page).getByRole('button').filter({ hasText: /save/i }).first().click();
	await page.waitForFunction(() => Consent.get().decided);
	const st = await page.evaluate(() => Consent.get());
	assert.deepEqual(st.categories, { ...NONE, analytics: true });
	await page.waitForFunction((n) => (window.ran || []).includes(n), t, { timeout: 5000 }).catch(() => {});
	assert.deepEqual(await ran(page), [t], 'the analytics tracker ran');
	await page.context().close();
});

test('GPC with consentRules.honorGpc false: ignored (gpc false, opt_out categories allowed, accept all turns all on)', async () => {
	srv.publish(gpcConfig(false));
	const page = await gpcPage();
	const st = await h.visit(page, srv.page());
	assert.equal(st.gpc, false);
	assert.deepEqual(st.categories, ALL);
	await page.evaluate(() => Consent.acceptAll());
	assert.deepEqual(await page.evaluate(() => Consent.get().categories), ALL);
	await page.context().close();
});

test('GPC in the proof of consent: export entries of requests with Sec-GPC: 1 have gpc true, others gpc false', async () => {
	srv.publish(gpcConfig());
	const page = await gpcPage();
	await h.visit(page, srv.page());
	await h.button(page, 'Accept all').click();
	const e = await h.visitorEntries(srv, page, 2);
	assert.deepEqual(e.map((x) => x.event_type), ['impression', 'initial']);
	const sent = await h.waitApiRequests(page, 'consent', 'POST', 2);
	assert.equal(sent.length, 2);
	for (const r of sent) assert.equal((await r.allHeaders())['sec-gpc'], '1', 'the consent requests carried Sec-GPC: 1');
	for (const x of e) assert.equal(x.gpc, true, `${x.event_type}: gpc true in the export (${JSON.stringify(Object.keys(x))})`);
	await page.context().close();
	const plain = await h.newPage(browser);
	await h.visit(plain, srv.page());
	await h.button(plain, 'Accept all').click();
	const e2 = await h.visitorEntries(srv, plain, 2);
	assert.equal(e2.length, 2);
	for (const x of e2) assert.equal(x.gpc, false, `${x.event_type}: gpc false without the header`);
	const csv = srv.ctl('consent', 'export', 't1', '--format', 'csv').split(/\r?\n/);
	assert.ok(csv[0].split(',').includes('gpc'), `a gpc column in the CSV export: ${csv[0]}`);
	await plain.context().close();
});
