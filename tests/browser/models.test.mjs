// models.test.mjs: SDK.md 3, each consent model's banner and state before
// and after a decision.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';

let srv, browser;
before(async () => { srv = await h.startServer(); browser = await h.launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

async function open(doc) {
	srv.publish(doc);
	const page = await h.newPage(browser);
	const state = await h.visit(page, srv.page());
	return { page, state };
}

async function buttons(page) {
	await h.banner(page).waitFor({ state: 'visible' });
	return h.banner(page).getByRole('button').allTextContents();
}

test('opt_in: banner offers accept, reject, customise; nothing optional allowed before a decision', async () => {
	const { page, state } = await open(h.modelConfig('opt_in'));
	assert.deepEqual(await buttons(page), ['Accept all', 'Reject all', 'Customize']);
	assert.equal(state.decided, false);
	assert.deepEqual(state.categories, { necessary: true, functional: false, analytics: false, marketing: false });
	assert.equal(await page.evaluate(() => Consent.allowed('analytics')), false);
	assert.equal(await page.evaluate(() => Consent.allowed('necessary')), true);
	await h.button(page, 'Accept all').click();
	await page.waitForFunction(() => Consent.get().decided);
	assert.deepEqual(await page.evaluate(() => Consent.get().categories),
		{ necessary: true, functional: true, analytics: true, marketing: true });
	assert.equal(await h.isShown(h.banner(page)), false, 'the banner is gone after the decision');
	await page.context().close();
});

test('opt_out: banner offers accept, reject, customise; optional categories allowed before a decision, not after reject', async () => {
	const { page, state } = await open(h.modelConfig('opt_out'));
	const b = await buttons(page);
	assert.equal(b.length, 3);
	assert.equal(b[0], 'Accept all');
	// The built-in English opt_out override names the reject button.
	assert.equal(b[1], 'Do not sell or share my personal information');
	assert.equal(b[2], 'Manage choices');
	assert.equal(state.decided, false);
	assert.deepEqual(state.categories, { necessary: true, functional: true, analytics: true, marketing: true });
	// Rejecting takes back categories allowed before: SDK.md 5 reloads the
	// page once the decision is recorded; the state is read on the new page.
	const reloaded = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 15000 });
	await h.button(page, 'Do not sell or share my personal information').click();
	await reloaded;
	await page.waitForFunction(() => window.Consent && Consent.get().decided, null, { timeout: 15000 });
	assert.equal(await page.evaluate(() => Consent.allowed('marketing')), false);
	assert.equal(await page.evaluate(() => Consent.allowed('necessary')), true);
	await page.context().close();
});

for (const model of ['notice_only', 'notice']) {
	test(`${model}: one acknowledging button, categories allowed before it; using it records acknowledge`, async () => {
		const { page, state } = await open(h.modelConfig(model));
		const b = await buttons(page);
		assert.equal(b.length, 1, `only one button, got ${JSON.stringify(b)}`);
		assert.equal(b[0], model === 'notice_only' ? 'Got it' : 'Accept all');
		assert.equal(state.decided, false);
		assert.deepEqual(state.categories, { necessary: true, functional: true, analytics: true, marketing: true });
		await h.banner(page).getByRole('button').click();
		const e = await h.visitorEntries(srv, page, 2);
		const last = e[e.length - 1];
		assert.equal(last.event_type, 'initial');
		assert.equal(last.event_action, 'acknowledge');
		assert.equal(last.interaction, 'acknowledge');
		assert.equal(await h.isShown(h.banner(page)), false);
		await page.context().close();
	});
}

test('notice_required: one acknowledging button; categories not allowed until it is used', async () => {
	const { page, state } = await open(h.modelConfig('notice_required'));
	const b = await buttons(page);
	assert.equal(b.length, 1);
	assert.equal(state.decided, false);
	assert.equal(state.categories.analytics, false);
	assert.equal(await page.evaluate(() => Consent.allowed('marketing')), false);
	await h.button(page, b[0]).click();
	await page.waitForFunction(() => Consent.get().decided);
	assert.deepEqual(await page.evaluate(() => Consent.get().categories),
		{ necessary: true, functional: true, analytics: true, marketing: true });
	await page.context().close();
});

test('exempt categories only: no banner, decided is false, the exempt category is allowed', async () => {
	const doc = h.modelConfig('opt_in');
	doc.categories = doc.categories.filter((c) => c.consentModel === 'exempt');
	doc.scriptRules = [];
	const { page, state } = await open(doc);
	await h.sleep(300);
	assert.equal(await h.isShown(h.banner(page)), false);
	assert.equal(state.categories.necessary, true);
	assert.equal(await page.evaluate(() => Consent.allowed('necessary')), true);
	assert.equal(h.apiRequests(page, 'consent').length, 0, 'no impression without a banner');
	await page.context().close();
});

test('mixed models: accept, reject, customise; notice categories informational, not switchable, allowed whatever the choice', async () => {
	const doc = h.modelConfig('opt_in', { functional: 'notice_only', marketing: 'notice_required' });
	const { page, state } = await open(doc);
	assert.deepEqual(await buttons(page), ['Accept all', 'Reject all', 'Customize']);
	assert.equal(state.categories.functional, true, 'notice_only allowed before a decision');
	assert.equal(state.categories.marketing, false, 'notice_required not before the banner is answered');
	assert.equal(state.categories.analytics, false);
	await h.button(page, 'Customize').click();
	const sw = (id) => h.prefs(page).locator(`input[data-category="${id}"]`);
	await h.prefs(page).waitFor({ state: 'visible' });
	for (const id of ['necessary', 'functional', 'marketing']) {
		assert.equal(await sw(id).isDisabled(), true, `${id} is not switchable`);
	}
	// notice_required is off until the banner is answered, the others on.
	assert.equal(await sw('necessary').isChecked(), true);
	assert.equal(await sw('functional').isChecked(), true);
	assert.equal(await sw('analytics').isDisabled(), false);
	await h.button(page, 'Close').click();
	await h.button(page, 'Reject all').click();
	await page.waitForFunction(() => Consent.get().decided);
	assert.deepEqual(await page.evaluate(() => Consent.get().categories),
		{ necessary: true, functional: true, analytics: false, marketing: true });
	const e = await h.visitorEntries(srv, page, 2);
	assert.equal(e.at(-1).event_action, 'opt_out', 'event_action follows the switchable categories only');
	assert.equal(e.at(-1).interaction, 'reject_all');
	await page.context().close();
});

test('mixed models: accepting the switchable categories is opt_in, some of them partial', async () => {
	const doc = h.modelConfig('opt_in', { functional: 'notice_only' });
	const { page } = await open(doc);
	await page.evaluate(() => Consent.save({ analytics: true, marketing: false }));
	let e = await h.visitorEntries(srv, page, 2);
	assert.equal(e.at(-1).event_action, 'partial');
	await page.evaluate(() => Consent.acceptAll());
	e = await h.visitorEntries(srv, page, 3);
	assert.equal(e.at(-1).event_action, 'opt_in');
	assert.equal(e.at(-1).event_type, 'update');
	await page.context().close();
});

test('region from data-region: the region\'s model applies (us_state_laws is opt_out in the built-in config)', async () => {
	srv.publish(h.baseConfig());
	const page = await h.newPage(browser);
	const state = await h.visit(page, srv.page({ attrs: { 'data-region': 'us_state_laws' } }));
	assert.equal(state.region, 'us_state_laws');
	assert.equal(state.categories.analytics, true);
	const st2 = await h.visit(page, srv.page({ attrs: { 'data-region': 'gdpr' } }));
	assert.equal(st2.region, 'gdpr');
	assert.equal(st2.categories.analytics, false);
	await page.context().close();
});
