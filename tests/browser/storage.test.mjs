// storage.test.mjs: SDK.md 3 (validity) and the stored decision: the
// consent_choice cookie, reloads, expiry, a new category, cookie domain.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';

let srv, browser;
before(async () => { srv = await h.startServer(); browser = await h.launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

const DAY = 86400000;

// A consent_choice cookie as the SDK writes it, for site.test.
function choiceCookie(rec, domain = 'site.test') {
	return { name: 'consent_choice', value: encodeURIComponent(JSON.stringify(rec)), domain, path: '/', sameSite: 'Lax' };
}

test('a decision is stored in the first-party cookie consent_choice: v, id, ts, days, ver, cats; path=/, SameSite=Lax, max-age = expiry', async () => {
	const ver = srv.publish(h.modelConfig('opt_in'));
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	const t0 = Date.now();
	await page.evaluate(() => Consent.save({ analytics: true }));
	const c = await h.storedChoice(page);
	assert.ok(c, 'a consent_choice cookie');
	const v = c.value;
	assert.equal(v.v, 1);
	assert.match(v.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	assert.equal(v.id, await page.evaluate(() => JSON.parse(localStorage.getItem('consent.id'))), 'the anon id is kept in localStorage too');
	assert.ok(Math.abs(v.ts - t0) < 10000, `ts ${v.ts} is the time of the decision`);
	assert.equal(v.days, 365);
	assert.equal(v.ver, ver);
	assert.deepEqual(v.cats, { necessary: true, functional: false, analytics: true, marketing: false });
	assert.equal(c.cookie.path, '/');
	assert.equal(c.cookie.sameSite, 'Lax');
	assert.equal(c.cookie.domain, 'site.test', 'host-only without data-cookie-domain');
	const left = c.cookie.expires * 1000 - Date.now();
	assert.ok(Math.abs(left - 365 * DAY) < DAY, `expires in 365 days, got ${left / DAY}`);
	await page.context().close();
});

test('a stored decision applies across reloads: no banner, decided, its categories', async () => {
	srv.publish(h.modelConfig('opt_in'));
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await page.evaluate(() => Consent.save({ marketing: true }));
	const st = await h.visit(page, srv.page());
	assert.equal(st.decided, true);
	assert.deepEqual(st.categories, { necessary: true, functional: false, analytics: false, marketing: true });
	await h.sleep(300);
	assert.equal(await h.isShown(h.banner(page)), false);
	await page.reload();
	const st2 = await h.ready(page);
	assert.equal(st2.decided, true);
	assert.equal(await page.evaluate(() => Consent.allowed('marketing')), true);
	await page.context().close();
});

test('an expired decision (older than consentRules.expiryDays) brings the banner back', async () => {
	const doc = h.modelConfig('opt_in');
	doc.consentRules.expiryDays = 30;
	const ver = srv.publish(doc);
	const page = await h.newPage(browser);
	const cats = { necessary: true, functional: true, analytics: true, marketing: true };
	const id = '11111111-2222-4333-8444-555555555555';
	// 29 days old: still valid under a 30-day expiry.
	await page.context().addCookies([choiceCookie({ v: 1, id, ts: Date.now() - 29 * DAY, days: 30, ver, cats })]);
	let st = await h.visit(page, srv.page());
	assert.equal(st.decided, true, '29 days old, 30 days expiry: valid');
	// 31 days old: expired.
	await page.context().addCookies([choiceCookie({ v: 1, id, ts: Date.now() - 31 * DAY, days: 30, ver, cats })]);
	st = await h.visit(page, srv.page());
	assert.equal(st.decided, false, '31 days old: expired');
	assert.equal(st.categories.analytics, false, 'an expired decision allows nothing optional');
	await h.banner(page).waitFor({ state: 'visible' });
	await page.context().close();
});

test('a category added by a new publish brings the banner back', async () => {
	srv.publish(h.modelConfig('opt_in'));
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await page.evaluate(() => Consent.acceptAll());
	let st = await h.visit(page, srv.page());
	assert.equal(st.decided, true);
	const doc = h.modelConfig('opt_in');
	doc.categories.push({ id: 'social', name: 'Social media', description: 'Share buttons', consentModel: 'opt_in' });
	srv.publish(doc);
	st = await h.visit(page, srv.page());
	assert.equal(st.decided, false, 'the stored decision does not cover "social"');
	await h.banner(page).waitFor({ state: 'visible' });
	await page.context().close();
});

test('a new exempt category does not bring the banner back', async () => {
	srv.publish(h.modelConfig('opt_in'));
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await page.evaluate(() => Consent.rejectAll());
	const doc = h.modelConfig('opt_in');
	doc.categories.push({ id: 'security', name: 'Security', description: 'Fraud prevention', consentModel: 'exempt' });
	srv.publish(doc);
	const st = await h.visit(page, srv.page());
	assert.equal(st.decided, true);
	assert.equal(st.categories.security, true);
	await page.context().close();
});

test('data-cookie-domain widens the stored decision to the parent domain', async () => {
	srv.publish(h.modelConfig('opt_in'));
	srv.ctl('domain', 'add', 't1', 'www.site.test');
	const page = await h.newPage(browser);
	const url = srv.page({ attrs: { 'data-cookie-domain': 'site.test' } }).replace('//site.test', '//www.site.test');
	await h.visit(page, url);
	await page.evaluate(() => Consent.acceptAll());
	const c = await h.storedChoice(page);
	assert.equal(c.cookie.domain, '.site.test');
	const st = await h.visit(page, srv.page());
	assert.equal(st.decided, true, 'site.test reads the decision made on www.site.test');
	await page.context().close();
});
