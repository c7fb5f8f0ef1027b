// stages.test.mjs: issue 29 (c), the built-in rules of the hosts the common
// tags' later stages use, under their real names (launch({hosts}) maps them
// to tracker.mjs).  A tag whose first stage is not held (an inline snippet,
// or the tag bundled into the site's own script) reaches these hosts by
// code: the Meta pixel's www.facebook.com/tr image, LinkedIn's
// px.ads.linkedin.com beacon, Bing UET's bat.bing.com fetch, Hotjar's
// script.hotjar.com modules, YouTube's www.youtube.com iframe API and an
// i.ytimg.com thumbnail, and the Maps JavaScript API on
// maps.googleapis.com.  Scripts are held and run once when allowed;
// requests are stopped and not replayed (SDK.md 5).
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';
import { startTracker, ran, counts, waitRan } from './tracker.mjs';

const HOSTS = {
	fb: 'www.facebook.com', li: 'px.ads.linkedin.com', bing: 'bat.bing.com', hj: 'script.hotjar.com',
	yt: 'www.youtube.com', yti: 'i.ytimg.com', maps: 'maps.googleapis.com',
};
let srv, browser, tr;
before(async () => {
	[srv, tr] = await Promise.all([h.startServer(), startTracker({ tls: true })]);
	browser = await h.launch({ hosts: Object.values(HOSTS) });
	srv.publish(h.modelConfig('opt_in'));
});
after(async () => { await browser?.close(); await srv?.stop(); await tr?.stop(); });

let seq = 0;
const QUIET = 400;

// A page whose inline code runs every later stage named PREFIX-KIND-1 once
// the config has arrived (before it, on a first visit, only stored rules
// are known and requests by code go through: SDK.md 5); window.stage(URLS)
// runs them again with other names.
function page() {
	const p = `s${++seq}`;
	const U = {
		fb: (n) => tr.px(HOSTS.fb, `${p}-fb-${n}`), li: (n) => tr.b(HOSTS.li, `${p}-li-${n}`),
		bing: (n) => tr.b(HOSTS.bing, `${p}-bing-${n}`), hj: (n) => tr.js(HOSTS.hj, `${p}-hj-${n}`),
		yt: (n) => tr.js(HOSTS.yt, `${p}-yt-${n}`), yti: (n) => tr.px(HOSTS.yti, `${p}-yti-${n}`),
		maps: (n) => tr.js(HOSTS.maps, `${p}-maps-${n}`),
	};
	const urls = (n) => Object.fromEntries(Object.entries(U).map(([k, f]) => [k, f(n)]));
	const html = `<script>
window.stage = function (u) {
	new Image().src = u.fb;
	navigator.sendBeacon(u.li, 'x');
	fetch(u.bing, { method: 'POST', body: 'x', mode: 'no-cors' }).catch(function () {});
	['hj', 'yt', 'maps'].forEach(function (k) {
		var s = document.createElement('script'); s.src = u[k]; document.head.appendChild(s);
	});
	var i = document.createElement('img'); i.alt = ''; i.src = u.yti; document.body.appendChild(i);
};
Consent.ready.then(function () { stage(${JSON.stringify(urls(1))}); });
</script>`;
	const scripts = (n) => ['hj', 'yt', 'maps'].map((k) => `${p}-${k}-${n}`);
	const requests = (n) => ['fb', 'li', 'bing', 'yti'].map((k) => `${p}-${k}-${n}`);
	return { html, urls, scripts, requests };
}

const hitsOf = (names) => Object.fromEntries(names.map((x) => [x, tr.hits(x)]));
const fill = (names, v) => Object.fromEntries(names.map((x) => [x, v]));


test('later stages: nothing requested or run before a decision, after "Reject all" or after the reload', async () => {
	const s = page();
	const all = [...s.scripts(1), ...s.requests(1)];
	const pg = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(pg, srv.page({ head: s.html }));
	await h.banner(pg).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	assert.deepEqual(await ran(pg), []);
	assert.deepEqual(hitsOf(all), fill(all, 0), 'no later-stage host was reached before a decision');
	await h.button(pg, 'Reject all').click();
	await pg.waitForFunction(() => Consent.get().decided);
	await pg.evaluate((u) => stage(u), s.urls(2));
	await h.sleep(QUIET);
	const two = [...s.scripts(2), ...s.requests(2)];
	assert.deepEqual(await ran(pg), []);
	assert.deepEqual(hitsOf([...all, ...two]), fill([...all, ...two], 0), 'nor after "Reject all"');
	await pg.reload();
	await h.ready(pg);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(pg), []);
	assert.deepEqual(hitsOf(all), fill(all, 0), 'nor on the reload');
	assert.deepEqual(pg.errors, []);
	await pg.context().close();
});

test('later stages: "Accept all" runs each held script once (the stopped requests are not replayed; new ones go through); a returning visit reaches them at once, without the banner', async () => {
	const s = page();
	const pg = await h.newPage(browser, { ignoreHTTPSErrors: true });
	await h.visit(pg, srv.page({ head: s.html }));
	await h.banner(pg).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	await h.button(pg, 'Accept all').click();
	await waitRan(pg, s.scripts(1));
	await h.sleep(QUIET);
	assert.deepEqual(counts(await ran(pg)), fill(s.scripts(1), 1), 'each held script ran once');
	assert.deepEqual(hitsOf(s.requests(1)), fill(s.requests(1), 0), 'the stopped requests are not replayed');
	await pg.evaluate((u) => stage(u), s.urls(2));
	await waitRan(pg, s.scripts(2));
	await h.sleep(QUIET);
	assert.deepEqual(hitsOf(s.requests(2)), fill(s.requests(2), 1), 'requests after the decision go through');
	await pg.reload();
	await h.ready(pg);
	await waitRan(pg, s.scripts(1));
	await h.sleep(QUIET);
	assert.equal(await h.isShown(h.banner(pg)), false, 'no banner on the returning visit');
	assert.deepEqual(counts(await ran(pg)), fill(s.scripts(1), 1), 'each script ran once on the returning visit');
	assert.deepEqual(hitsOf(s.requests(1)), fill(s.requests(1), 1), 'and each request went through once');
	await pg.context().close();
});
