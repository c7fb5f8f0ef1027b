// inventory.test.mjs: SDK.md 9, the scripts inventory (POST
// /functions/v1/scripts) after load, at most once per page path per UTC
// day per browser, what `consentctl scripts list` then holds, and a
// tracker sync closed through the #consent-sync=UUID fragment.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';
import { startTracker, withRules } from './tracker.mjs';

let srv, browser, tr;
before(async () => {
	[srv, tr] = await Promise.all([h.startServer(), startTracker()]);
	browser = await h.launch();
	srv.publish(withRules(h.modelConfig('opt_in')));
});
after(async () => { await browser?.close(); await srv?.stop(); await tr?.stop(); });

let seq = 0;
const uniq = (s) => `${s}${++seq}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const reports = (page) => h.apiRequests(page, 'scripts').filter((r) => r.method() === 'POST');

// Wait until PAGE has sent at least COUNT reports, then a little longer, so
// that a second one would be seen; the reports.
async function settle(page, count, ms = 4000) {
	const end = Date.now() + ms;
	while (reports(page).length < count && Date.now() < end) await h.sleep(50);
	await h.sleep(400);
	return reports(page);
}

// A page with three third-party scripts: tracker.test (analytics rule,
// held), ads.test (marketing rule, held), free.test (no rule, runs), and
// a first-party one.
function trackersPage() {
	const n = uniq('r');
	const first = srv.file(`${n}-first.js`, 'window.firstRan = true;');
	return srv.page({ head: `<script src="${tr.js('tracker.test', `${n}-t`)}"></script>
<script src="${tr.js('ads.test', `${n}-a`)}"></script>
<script src="${tr.js('free.test', `${n}-f`)}"></script>
<script src="${first}"></script>` });
}

test('after load, one report of the third-party script domains: blocked for held ones, category the rule\'s; consentctl scripts list shows them', async () => {
	const page = await h.newPage(browser);
	const url = trackersPage();
	await h.visit(page, url);
	const r = await settle(page, 1);
	assert.equal(r.length, 1, 'exactly one report');
	assert.equal(new URL(r[0].url()).search, '', 'no query without a sync');
	const body = JSON.parse(r[0].postData());
	assert.equal(body.site_key, 't1');
	assert.equal(body.page_url, url);
	const by = Object.fromEntries(body.scripts.map((s) => [s.domain, s]));
	assert.deepEqual(Object.keys(by).sort(), ['ads.test', 'free.test', 'tracker.test'],
		'the third-party domains only (not the page\'s, not the API\'s)');
	assert.deepEqual([by['tracker.test'].blocked, by['tracker.test'].category], [true, 'analytics']);
	assert.deepEqual([by['ads.test'].blocked, by['ads.test'].category], [true, 'marketing']);
	assert.deepEqual([by['free.test'].blocked, by['free.test'].category], [false, null]);
	assert.match(by['tracker.test'].src, /^http:\/\/tracker\.test:\d+\/t\//);
	const resp = await r[0].response();
	assert.ok(resp && resp.status() < 300, `the endpoint accepted it: ${resp && resp.status()}`);
	const list = JSON.parse(srv.ctl('scripts', 'list', 't1', '--json'));
	const db = Object.fromEntries(list.map((s) => [s.domain, s]));
	for (const [d, cat, blocked] of [['tracker.test', 'analytics', true], ['ads.test', 'marketing', true], ['free.test', null, false]]) {
		assert.ok(db[d], `${d} in scripts list: ${JSON.stringify(list)}`);
		assert.equal(db[d].category, cat, `${d} category`);
		assert.equal(!!db[d].blocked, blocked, `${d} blocked`);
	}
	await page.context().close();
});

test('no second report for the same path the same UTC day (reload); a different path reports', async () => {
	const page = await h.newPage(browser);
	const url = trackersPage();
	await h.visit(page, url);
	assert.equal((await settle(page, 1)).length, 1);
	await page.reload();
	await h.ready(page);
	await page.waitForLoadState('load');
	assert.equal((await settle(page, 2, 800)).length, 1, 'no report on the reload');
	const day = new Date().toISOString().slice(0, 10);
	const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('consent.reported')));
	assert.equal(stored[new URL(url).pathname], day, 'consent.reported holds the path and today\'s UTC day');
	await h.visit(page, trackersPage());
	const r = await settle(page, 2);
	assert.equal(r.length, 2, 'a different path reports');
	assert.notEqual(JSON.parse(r[1].postData()).page_url, url);
	await page.context().close();
});

test('tracker sync: consentctl sync start prints a UUID; the page opened with #consent-sync=UUID reports at once with ?sync_id=UUID (even a path reported today); sync show says complete', async () => {
	const id = srv.ctl('sync', 'start', 't1').trim();
	assert.match(id, UUID);
	assert.equal(JSON.parse(srv.ctl('sync', 'show', id, '--json')).status, 'pending');
	const page = await h.newPage(browser);
	const url = trackersPage();
	await h.visit(page, url);
	assert.equal((await settle(page, 1)).length, 1, 'the ordinary report of the day');
	await h.visit(page, srv.page());
	await settle(page, 2);
	await h.visit(page, `${url}#consent-sync=${id}`);
	const r = await settle(page, 3);
	assert.equal(r.length, 3, 'the sync reports although the path was reported today');
	const u = new URL(r[2].url());
	assert.equal(u.searchParams.get('sync_id'), id);
	const body = JSON.parse(r[2].postData());
	assert.deepEqual(body.scripts.map((s) => s.domain).sort(), ['ads.test', 'free.test', 'tracker.test']);
	assert.equal(body.error, undefined, 'no scan error');
	let s;
	for (let i = 0; i < 40; i++) {
		s = JSON.parse(srv.ctl('sync', 'show', id, '--json'));
		if (s.status !== 'pending') break;
		await h.sleep(50);
	}
	assert.equal(s.status, 'complete');
	assert.equal(s.error, null);
	assert.equal(s.page_url, url);
	await page.context().close();
});
