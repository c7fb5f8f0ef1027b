// api.test.mjs: SDK.md 8, window.Consent, its events and [data-consent-open].
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';

let srv, browser;
before(async () => { srv = await h.startServer(); browser = await h.launch(); srv.publish(h.modelConfig('opt_in')); });
after(async () => { await browser?.close(); await srv?.stop(); });

const KEYS = ['categories', 'decided', 'disabled', 'error', 'gpc', 'language', 'region', 'version'];

// A page whose inline script, right after the SDK, records what the API
// and the events deliver (window.log).
const RECORDER = `<script>
window.log = [];
document.addEventListener('consent:ready', (e) => log.push(['doc:ready', e.detail]));
document.addEventListener('consent:change', (e) => log.push(['doc:change', e.detail]));
Consent.on('ready', (s) => log.push(['on:ready', s]));
Consent.on('change', (s) => log.push(['on:change', s]));
</script>`;

async function open() {
	const page = await h.newPage(browser);
	const st = await h.visit(page, srv.page({ head: RECORDER }));
	return { page, st };
}

test('Consent.ready resolves with the state; get() has exactly the documented keys', async () => {
	const { page, st } = await open();
	assert.deepEqual(Object.keys(st).sort(), KEYS);
	assert.deepEqual(await page.evaluate(() => Consent.get()), st);
	assert.equal(st.region, 'default');
	assert.equal(st.language, 'en');
	assert.equal(st.version, Number(JSON.parse(srv.ctl('site', 'show', 't1', '--json')).version));
	assert.equal(st.gpc, false);
	await page.context().close();
});

test('consent:ready on document and on("ready") deliver the same state once', async () => {
	const { page, st } = await open();
	const log = await page.evaluate(() => window.log);
	const readies = log.filter(([k]) => k.endsWith(':ready'));
	assert.deepEqual(readies.map(([k]) => k).sort(), ['doc:ready', 'on:ready']);
	for (const [, s] of readies) assert.deepEqual(s, st);
	// on('ready') after ready: called at once.
	const late = await page.evaluate(() => new Promise((r) => Consent.on('ready', r)));
	assert.deepEqual(late, st);
	await page.context().close();
});

test('acceptAll() resolves once the decision is stored; consent:change and on("change") carry the new state', async () => {
	const { page } = await open();
	const res = await page.evaluate(async () => {
		const s = await Consent.acceptAll();
		return { s, cookie: document.cookie.includes('consent_choice='), log: window.log };
	});
	assert.equal(res.cookie, true, 'the cookie is written when the promise resolves');
	assert.equal(res.s.decided, true);
	assert.equal(res.s.categories.marketing, true);
	const changes = res.log.filter(([k]) => k.endsWith(':change'));
	assert.deepEqual(changes.map(([k]) => k).sort(), ['doc:change', 'on:change']);
	for (const [, s] of changes) assert.equal(s.categories.analytics, true);
	await page.context().close();
});

test('rejectAll() allows nothing optional', async () => {
	const { page } = await open();
	const s = await page.evaluate(() => Consent.rejectAll());
	assert.deepEqual(s.categories, { necessary: true, functional: false, analytics: false, marketing: false });
	assert.equal(await page.evaluate(() => Consent.allowed('functional')), false);
	await page.context().close();
});

test('save({id: boolean}) sets the named categories; the others keep their state', async () => {
	const { page } = await open();
	await page.evaluate(() => Consent.save({ analytics: true }));
	const s = await page.evaluate(() => Consent.save({ marketing: true }));
	assert.deepEqual(s.categories, { necessary: true, functional: false, analytics: true, marketing: true });
	assert.equal(await page.evaluate(() => Consent.allowed('analytics')), true);
	// Withdrawing one (SDK.md 5) reloads the page; the others stay.
	await Promise.all([page.waitForNavigation(), page.evaluate(() => { Consent.save({ marketing: false }); })]);
	const after = await h.ready(page);
	assert.deepEqual(after.categories, { necessary: true, functional: false, analytics: true, marketing: false });
	await page.context().close();
});

test('allowed(id) is false for an unknown id; exempt ids cannot be switched off by save()', async () => {
	const { page } = await open();
	assert.equal(await page.evaluate(() => Consent.allowed('nosuch')), false);
	await page.evaluate(() => Consent.save({ necessary: false }));
	assert.equal(await page.evaluate(() => Consent.allowed('necessary')), true);
	await page.context().close();
});

test('showBanner() opens the banner again after a decision', async () => {
	const { page } = await open();
	await page.evaluate(() => Consent.rejectAll());
	assert.equal(await h.isShown(h.banner(page)), false);
	await page.evaluate(() => Consent.showBanner());
	await h.banner(page).waitFor({ state: 'visible' });
	await h.button(page, 'Accept all').click();
	await page.waitForFunction(() => Consent.allowed('analytics'));
	await page.context().close();
});

test('showPreferences() opens the preferences dialog with the current state', async () => {
	const { page } = await open();
	await page.evaluate(() => Consent.save({ functional: true }));
	await page.evaluate(() => Consent.showPreferences());
	await h.prefs(page).waitFor({ state: 'visible' });
	assert.equal(await h.prefs(page).getByRole('switch', { name: 'Functional' }).isChecked(), true);
	assert.equal(await h.prefs(page).getByRole('switch', { name: 'Analytics' }).isChecked(), false);
	await page.context().close();
});

test('a click on any [data-consent-open] element opens the preferences dialog', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page({ body: '<footer><a href="#top" data-consent-open>Cookie settings</a> <span data-consent-open tabindex="0" role="button">Privacy</span></footer>' }));
	await page.evaluate(() => Consent.rejectAll());
	await page.getByRole('link', { name: 'Cookie settings' }).click();
	await h.prefs(page).waitFor({ state: 'visible' });
	assert.equal(new URL(page.url()).hash, '', 'the link\'s own navigation is prevented');
	await h.button(page, 'Close').click();
	await h.prefs(page).waitFor({ state: 'hidden' });
	await page.getByText('Privacy', { exact: true }).click();
	await h.prefs(page).waitFor({ state: 'visible' });
	await page.context().close();
});
