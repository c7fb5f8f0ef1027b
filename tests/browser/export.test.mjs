// export.test.mjs: SDK.md 6, what `consentctl consent export` holds after
// each kind of decision, every field, and the monthly returning visitor.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';

let srv, browser, ver;
before(async () => {
	srv = await h.startServer(); browser = await h.launch();
	const doc = h.modelConfig('opt_in');
	doc.appearance.position = 'bottom-left';
	ver = srv.publish(doc);
});
after(async () => { await browser?.close(); await srv?.stop(); });

const ALL = { necessary: true, functional: true, analytics: true, marketing: true };
const NONE = { necessary: true, functional: false, analytics: false, marketing: false };

// A page view with a query and a fragment; the entries it caused.
async function session() {
	const skip = srv.entries().length;
	const page = await h.newPage(browser);
	const url = srv.page() + '?utm_source=mail&token=secret#section';
	await h.visit(page, url);
	await h.banner(page).waitFor({ state: 'visible' });
	const id = await page.evaluate(() => JSON.parse(localStorage.getItem('consent.id')));
	return { page, skip, id, path: new URL(url).origin + new URL(url).pathname };
}

function common(e, s, label) {
	assert.equal(e.anon_id_hash, h.sha256(s.id), `${label}: anon_id is the browser's id`);
	assert.equal(e.config_version, ver, `${label}: config_version`);
	assert.equal(e.region, 'default', `${label}: region`);
	assert.equal(e.regulation, 'default', `${label}: regulation`);
	assert.equal(e.consent_model, 'opt_in', `${label}: consent_model`);
	assert.equal(e.banner_position, 'bottom-left', `${label}: banner_position`);
	assert.equal(e.page_url, s.path, `${label}: page_url without query or fragment`);
	assert.equal(e.sdk_version, h.VERSION, `${label}: sdk_version is VERSION`);
	assert.equal(e.language, 'en-US', `${label}: language is navigator.language`);
	assert.equal(e.resolved_language, 'en', `${label}: resolved_language`);
	assert.equal(typeof e.banner_load_time_ms, 'number', `${label}: banner_load_time_ms`);
	assert.ok(e.banner_load_time_ms >= 0 && e.banner_load_time_ms < 60000);
	assert.equal(typeof e.preferences_opened, 'boolean', `${label}: preferences_opened`);
}

test('a shown banner sends one impression with every field', async () => {
	const s = await session();
	const e = await h.visitorEntries(srv, s.page, 1);
	await h.sleep(300);
	assert.equal((await h.visitorEntries(srv, s.page, 0)).length, 1, 'exactly one entry');
	assert.equal(e[0].event_type, 'impression');
	assert.equal(e[0].event_action, null);
	common(e[0], s, 'impression');
	assert.equal(e[0].preferences_opened, false);
	assert.deepEqual(e[0].categories, NONE);
	await s.page.context().close();
});

test('accept all: impression then initial, opt_in, accept_all, every category true, every field', async () => {
	const s = await session();
	await h.button(s.page, 'Accept all').click();
	const e = await h.visitorEntries(srv, s.page, 2);
	assert.deepEqual(e.map((x) => x.event_type), ['impression', 'initial']);
	const d = e[1];
	assert.equal(d.event_action, 'opt_in');
	assert.equal(d.interaction, 'accept_all');
	assert.deepEqual(d.categories, ALL);
	assert.equal(d.preferences_opened, false);
	assert.equal(typeof d.time_to_action_ms, 'number', 'time_to_action_ms');
	assert.ok(d.time_to_action_ms >= 0 && d.time_to_action_ms < 60000);
	common(d, s, 'initial');
	await s.page.context().close();
});

test('reject all: initial, opt_out, reject_all, optional categories false', async () => {
	const s = await session();
	await h.button(s.page, 'Reject all').click();
	const e = await h.visitorEntries(srv, s.page, 2);
	assert.deepEqual(e.map((x) => x.event_type), ['impression', 'initial']);
	assert.equal(e[1].event_action, 'opt_out');
	assert.equal(e[1].interaction, 'reject_all');
	assert.deepEqual(e[1].categories, NONE);
	common(e[1], s, 'reject');
	await s.page.context().close();
});

test('save preferences: initial, partial, save_preferences, preferences_opened true, the chosen categories', async () => {
	const s = await session();
	await h.button(s.page, 'Customize').click();
	await h.prefs(s.page).getByRole('switch', { name: 'Analytics' }).check();
	await h.button(s.page, 'Save preferences').click();
	const e = await h.visitorEntries(srv, s.page, 2);
	assert.equal(e[1].event_type, 'initial');
	assert.equal(e[1].event_action, 'partial');
	assert.equal(e[1].interaction, 'save_preferences');
	assert.equal(e[1].preferences_opened, true);
	assert.deepEqual(e[1].categories, { ...NONE, analytics: true });
	common(e[1], s, 'save');
	await s.page.context().close();
});

test('a second decision is an update; a decision through window.Consent has interaction api', async () => {
	const s = await session();
	await h.button(s.page, 'Reject all').click();
	await h.visitorEntries(srv, s.page, 2);
	await s.page.evaluate(() => Consent.acceptAll());
	const e = await h.visitorEntries(srv, s.page, 3);
	assert.equal(e[2].event_type, 'update');
	assert.equal(e[2].event_action, 'opt_in');
	assert.equal(e[2].interaction, 'api');
	assert.equal(e[2].anon_id_hash, e[1].anon_id_hash, 'the same visitor');
	await s.page.context().close();
});

test('a returning visitor with a decision sends no impression again in the same month', async () => {
	const s = await session();
	await h.button(s.page, 'Accept all').click();
	await h.visitorEntries(srv, s.page, 2);
	for (let i = 0; i < 2; i++) await h.visit(s.page, srv.page());
	await h.sleep(500);
	const e = await h.visitorEntries(srv, s.page, 0);
	assert.equal(e.length, 2, `no entry for the reloads: ${e.map((x) => `${x.event_type}/${x.interaction}`).join(' ')}`);
	await s.page.context().close();
});

test('returning visitor: one impression returning_visitor on the first page view of a new UTC month, not on the next', async () => {
	const s = await session();
	await h.button(s.page, 'Accept all').click();
	await h.visitorEntries(srv, s.page, 2);
	// The last entry was sent in an earlier month.
	await s.page.evaluate(() => localStorage.setItem('consent.month', JSON.stringify('2020-01')));
	await h.visit(s.page, srv.page());
	const e = await h.visitorEntries(srv, s.page, 3);
	assert.equal(e[2].event_type, 'impression');
	assert.equal(e[2].interaction, 'returning_visitor');
	assert.deepEqual(e[2].categories, ALL);
	assert.equal(e[2].anon_id_hash, h.sha256(s.id));
	assert.equal(await s.page.evaluate(() => JSON.parse(localStorage.getItem('consent.month'))),
		new Date().toISOString().slice(0, 7), 'consent.month is this UTC month');
	await h.visit(s.page, srv.page());
	await h.visit(s.page, srv.page());
	await h.sleep(500);
	assert.equal((await h.visitorEntries(srv, s.page, 0)).length, 3, 'no second returning_visitor impression');
	await s.page.context().close();
});

test('acknowledge: a notice banner records initial acknowledge/acknowledge with every category', async () => {
	srv.publish(h.modelConfig('notice_only'));
	const s = await session();
	await h.button(s.page, 'Got it').click();
	const e = await h.visitorEntries(srv, s.page, 2);
	assert.equal(e[1].event_type, 'initial');
	assert.equal(e[1].event_action, 'acknowledge');
	assert.equal(e[1].interaction, 'acknowledge');
	assert.equal(e[1].consent_model, 'notice_only');
	assert.deepEqual(e[1].categories, ALL);
	await s.page.context().close();
	ver = srv.publish((() => { const d = h.modelConfig('opt_in'); d.appearance.position = 'bottom-left'; return d; })());
});

test('server logs: no sanitizer report, no CGI error', async () => {
	assert.doesNotMatch(srv.logs(), /Sanitizer|runtime error:/);
});
