// write.test.mjs: issue 29 (a), SDK.md 5 for markup written by
// document.write and writeln: the classic ga.js snippet and a
// connect.facebook.net probe, under their real host names (launch({hosts})
// maps them to tracker.mjs, which answers their https:// too), held by the built-in rules like parser-inserted
// scripts, synchronous and async alike; written iframes and images of a
// rule's host held too; markup that needs no holding written as given.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';
import { startTracker, ran, counts, withRules, waitRan } from './tracker.mjs';

const GA = 'www.google-analytics.com';
const FB = 'connect.facebook.net';
let srv, browser, tr;
before(async () => {
	[srv, tr] = await Promise.all([h.startServer(), startTracker({ tls: true })]);
	browser = await h.launch({ hosts: [GA, FB] });
	srv.publish(withRules(h.modelConfig('opt_in')));
});
after(async () => { await browser?.close(); await srv?.stop(); await tr?.stop(); });

let seq = 0;
const QUIET = 400;

// A page's written tags, named PREFIX-*: ga.js by the classic snippet
// (synchronous, document.write of an unescape()d string), an async
// connect.facebook.net script and an iframe (ads.test, marketing) and an
// image (tracker.test, analytics) by writeln, and a free.test script, a
// paragraph and an image, which no rule matches (on a first visit they too
// wait for the config).
function written() {
	const p = `w${++seq}`;
	const n = { ga: `${p}-ga`, fb: `${p}-fb`, frame: `${p}-frame`, img: `${p}-img`, free: `${p}-free` };
	const gaHost = `${GA.replace(/^www\./, '')}:${tr.port}`;
	const html = `<script type="text/javascript">
var gaJsHost = (("https:" == document.location.protocol) ? "https://ssl." : "http://www.");
document.write(unescape("%3Cscript src='" + gaJsHost + "${gaHost}/t/${n.ga}.js?tag=1' type='text/javascript'%3E%3C/script%3E"));
</script>
<script type="text/javascript">
try { window.gaBefore = (window.ran || []).indexOf(${JSON.stringify(n.ga)}) >= 0; } catch (err) {}
</script>
<script>
document.write('<script async src="${tr.js(FB, n.fb, 'tag=1')}"><\\/script>');
document.writeln('<iframe id="${n.frame}" src="${tr.frame('ads.test', n.frame)}"></iframe><img id="${n.img}" alt="" src="${tr.px('tracker.test', n.img)}">');
document.write('<script src="${tr.js('free.test', n.free)}"><\\/script><p id="${n.free}">written as given</p><img id="${n.free}-img" alt="" src="${tr.px('free.test', `${n.free}-img`)}">');
</script>`;
	return { n, html, tags: [n.ga, n.fb] };
}

// Requests that reached the tracker for each name: the tags' scripts and
// their pixels, the frame and the image.
function hits(n) {
	const out = {};
	for (const k of [n.ga, n.fb, `${n.ga}-hit`, `${n.fb}-hit`, n.frame, n.img]) out[k] = tr.hits(k);
	return out;
}
const none = (n) => Object.fromEntries(Object.keys(hits(n)).map((k) => [k, 0]));
const once = (n) => Object.fromEntries(Object.keys(hits(n)).map((k) => [k, 1]));
const cookies = async (page) => (await page.context().cookies()).map((c) => c.name).filter((x) => /^w\d+-/.test(x)).sort();


test('before a decision, after "Reject all" and after the reload: no written tag runs, is requested or sets a cookie; markup no rule holds is written as given', async () => {
	const w = written();
	const page = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(page, srv.page({ head: w.html }));
	await h.banner(page).waitFor({ state: 'visible' });
	await waitRan(page, [w.n.free], 3000);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [w.n.free], 'only the written script no rule matches ran, after the config');
	assert.equal(await page.locator(`#${w.n.free}`).textContent(), 'written as given');
	assert.equal(tr.hits(`${w.n.free}-img`), 1, 'a written image no rule holds is loaded once the config has come');
	assert.equal(await page.locator(`#${w.n.free}-img`).getAttribute('src'), tr.px('free.test', `${w.n.free}-img`));
	assert.deepEqual(hits(w.n), none(w.n), 'nothing of the tags was requested before a decision');
	assert.deepEqual(await cookies(page), []);
	const held = await page.evaluate((n) => [n.frame, n.img].map((id) => {
		const e = document.getElementById(id);
		return [e.hasAttribute('src'), e.hasAttribute('data-consent-held'), e.getAttribute('data-src')];
	}), w.n);
	assert.deepEqual(held, [[false, true, tr.frame('ads.test', w.n.frame)], [false, true, tr.px('tracker.test', w.n.img)]],
		'the written iframe and image wait, their src kept aside');
	await h.button(page, 'Reject all').click();
	await page.waitForFunction(() => Consent.get().decided);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [w.n.free]);
	assert.deepEqual(hits(w.n), none(w.n), 'nor after "Reject all"');
	await page.reload();
	const st = await h.ready(page);
	assert.equal(st.decided, true);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [w.n.free], 'the next page view runs only the free script');
	assert.deepEqual(hits(w.n), none(w.n), 'nor requests anything of the tags');
	assert.deepEqual(await cookies(page), [], 'no cookie of the tags');
	assert.deepEqual(page.errors, []);
	await page.context().close();
});

test('"Accept all" runs each written tag once (it sets its cookie and sends its hit); a returning visit runs them at once, without the banner', async () => {
	const w = written();
	const page = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(page, srv.page({ head: w.html }));
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	assert.deepEqual(hits(w.n), none(w.n));
	await h.button(page, 'Accept all').click();
	await waitRan(page, w.tags);
	await h.sleep(QUIET);
	assert.deepEqual(counts(await ran(page)), { [w.n.free]: 1, [w.n.ga]: 1, [w.n.fb]: 1 }, 'each ran once');
	assert.deepEqual(hits(w.n), once(w.n), 'each requested once, each hit sent once, the frame and the image loaded');
	assert.deepEqual(await cookies(page), [w.n.fb, w.n.ga].sort());
	await page.reload();
	await h.ready(page);
	await waitRan(page, w.tags);
	await h.sleep(QUIET);
	assert.equal(await h.isShown(h.banner(page)), false, 'no banner on the returning visit');
	assert.deepEqual(counts(await ran(page)), { [w.n.free]: 1, [w.n.ga]: 1, [w.n.fb]: 1 }, 'each ran once on the returning visit');
	assert.equal(await page.evaluate(() => window.gaBefore), true, 'ga.js ran where it was written, before the next script');
	assert.deepEqual(page.errors, []);
	await page.context().close();
});

test('no site key: every written third-party script stays held', async () => {
	const w = written();
	const page = await h.newPage(browser, { ignoreHTTPSErrors: true });
	const st = await h.visit(page, srv.page({ head: w.html, attrs: { 'data-site-key': null } }));
	assert.ok(st.error, 'the SDK says why it has no configuration');
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), []);
	for (const k of [w.n.ga, w.n.fb, w.n.free]) assert.equal(tr.hits(k), 0, `${k} not requested`);
	assert.deepEqual(await cookies(page), []);
	await page.context().close();
});
