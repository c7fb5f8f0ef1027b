// xss.test.mjs: SDK.md 4, every published text is inserted as text: markup
// in a title, description, button, category name or description, or the
// required badge shows literally and nothing in it runs.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';

let srv, browser;
before(async () => { srv = await h.startServer(); browser = await h.launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// Each payload sets window.__xss to its label if it ever runs.
const pay = (label) => `${label} <img src=x onerror="window.__xss='${label}'"><script>window.__xss='${label}'</script><b>bold</b>`;
const FIELDS = ['title', 'description', 'acceptAllText', 'rejectAllText', 'customizeText', 'savePreferencesText', 'closeText'];

function hostileConfig() {
	const doc = h.modelConfig('opt_in');
	const en = doc.content.translations.en;
	for (const f of FIELDS) en.banner[f] = pay(f);
	en.ui.required = pay('required');
	en.ui.preferencesTitle = pay('preferencesTitle');
	en.ui.preferencesDescription = pay('preferencesDescription');
	for (const c of doc.categories) {
		c.name = pay(`name-${c.id}`);
		c.description = pay(`desc-${c.id}`);
		delete en.categories[c.id];
	}
	en.categories = {};
	return doc;
}

// The shadow root's elements and what ran.
const inspect = (page) => page.evaluate(() => {
	const root = document.getElementById('consent-host').shadowRoot;
	return { xss: window.__xss ?? null, imgs: root.querySelectorAll('img').length,
		scripts: root.querySelectorAll('script').length, bolds: root.querySelectorAll('b').length,
		text: root.textContent };
});

test('the banner shows markup in its title, description and buttons as literal text; nothing runs', async () => {
	srv.publish(hostileConfig());
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(300);
	const r = await inspect(page);
	assert.equal(r.xss, null, 'no payload ran');
	assert.equal(r.imgs + r.scripts + r.bolds, 0, 'no element was made from a text');
	assert.equal(await h.banner(page).getByRole('heading').textContent(), pay('title'));
	for (const f of ['acceptAllText', 'rejectAllText', 'customizeText']) {
		assert.equal(await h.button(page, pay(f)).count(), 1, `${f}: a button named by the literal text`);
	}
	assert.ok(r.text.includes(pay('description')));
	await page.context().close();
});

test('the dialog shows markup in category names and descriptions, the required badge and its buttons as literal text; nothing runs', async () => {
	srv.publish(hostileConfig());
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await h.button(page, pay('customizeText')).click();
	await h.prefs(page).waitFor({ state: 'visible' });
	await h.sleep(300);
	const r = await inspect(page);
	assert.equal(r.xss, null, 'no payload ran');
	assert.equal(r.imgs + r.scripts + r.bolds, 0, 'no element was made from a text');
	for (const id of ['necessary', 'functional', 'analytics', 'marketing']) {
		assert.equal(await h.prefs(page).getByRole('switch', { name: pay(`name-${id}`) }).count(), 1, `switch ${id} named by the literal text`);
		assert.ok(r.text.includes(pay(`desc-${id}`)), `description of ${id}`);
	}
	assert.ok(r.text.includes(pay('required')), 'the required badge');
	for (const f of ['savePreferencesText', 'closeText']) {
		assert.equal(await h.button(page, pay(f)).count(), 1, f);
	}
	// Deciding through the hostile buttons still works.
	await h.button(page, pay('savePreferencesText')).click();
	await page.waitForFunction(() => Consent.get().decided);
	assert.equal(await page.evaluate(() => window.__xss ?? null), null);
	await page.context().close();
});

test('the XSS check can fail: the same payload run through innerHTML is caught', async () => {
	const page = await h.newPage(browser);
	await page.goto(srv.page());
	await page.evaluate((p) => { document.body.insertAdjacentHTML('beforeend', p); }, pay('control'));
	await page.waitForFunction(() => window.__xss === 'control', null, { timeout: 3000 });
	await page.context().close();
});
