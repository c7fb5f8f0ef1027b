// layout.test.mjs: SDK.md 4, equal buttons, positions without layout
// shift, themes, the shadow root's isolation, strict CSP, right to left,
// branding.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';

let srv, browser;
before(async () => { srv = await h.startServer(); browser = await h.launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

function publish(appearance = {}, mutate) {
	const doc = h.modelConfig('opt_in');
	Object.assign(doc.appearance, appearance);
	if (mutate) mutate(doc);
	return srv.publish(doc);
}

test('"Reject all" has the same width, height, font size, weight, radius and opacity as "Accept all" (2 px)', async () => {
	publish();
	const page = await h.newPage(browser, { viewport: { width: 1280, height: 800 } });
	await h.visit(page, srv.page());
	await h.banner(page).waitFor({ state: 'visible' });
	const look = (name) => h.button(page, name).evaluate((b) => {
		const s = getComputedStyle(b), r = b.getBoundingClientRect();
		return { w: r.width, h: r.height, fontSize: s.fontSize, fontWeight: s.fontWeight, radius: s.borderTopLeftRadius, opacity: s.opacity, visible: r.width > 0 };
	});
	for (const vp of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
		await page.setViewportSize(vp);
		const a = await look('Accept all'), r = await look('Reject all');
		assert.ok(Math.abs(a.w - r.w) <= 2, `${vp.width}px: width ${a.w} vs ${r.w}`);
		assert.ok(Math.abs(a.h - r.h) <= 2, `${vp.width}px: height ${a.h} vs ${r.h}`);
		assert.equal(r.fontSize, a.fontSize);
		assert.equal(r.fontWeight, a.fontWeight);
		assert.equal(r.radius, a.radius);
		assert.equal(r.opacity, a.opacity);
		assert.ok(r.visible);
	}
	await page.context().close();
});

// Where each position puts the banner in a 1280x800 viewport.
const PLACE = {
	'bottom-full': (b, v) => Math.abs(b.bottom - v.h) <= 24 && b.width >= v.w * 0.9,
	'top-full': (b, v) => b.top <= 24 && b.width >= v.w * 0.9,
	'bottom-left': (b, v) => Math.abs(b.bottom - v.h) <= 48 && b.left <= 48 && b.right < v.w * 0.75,
	'bottom-right': (b, v) => Math.abs(b.bottom - v.h) <= 48 && v.w - b.right <= 48 && b.left > v.w * 0.25,
	'center-modal': (b, v) => Math.abs((b.left + b.right) / 2 - v.w / 2) <= 24 && Math.abs((b.top + b.bottom) / 2 - v.h / 2) <= 80,
};

for (const position of Object.keys(PLACE)) {
	test(`position ${position}: the banner overlays the page where it should and moves none of its content`, async () => {
		publish({ position });
		const page = await h.newPage(browser, { viewport: { width: 1280, height: 800 } });
		await page.goto(srv.page({ body: '<p id="last">the end of the page</p>' }));
		const box = () => page.evaluate(() => ['content', 'last'].map((id) => {
			const r = document.getElementById(id).getBoundingClientRect();
			return [r.x, r.y, r.width, r.height];
		}));
		await page.waitForLoadState('load');
		const before0 = await box();
		await h.ready(page);
		await h.banner(page).waitFor({ state: 'visible' });
		assert.deepEqual(await box(), before0, 'page content did not move');
		const b = await h.banner(page).boundingBox();
		const v = { w: 1280, h: 800 };
		const rect = { left: b.x, top: b.y, right: b.x + b.width, bottom: b.y + b.height, width: b.width };
		assert.ok(PLACE[position](rect, v), `banner at ${JSON.stringify(rect)}`);
		assert.equal(await h.banner(page).getAttribute('data-position'), position);
		assert.equal(await h.banner(page).getAttribute('aria-modal'), position === 'center-modal' ? 'true' : 'false');
		const shifts = await page.evaluate(() => new Promise((r) => {
			let n = 0;
			new PerformanceObserver((l) => { for (const e of l.getEntries()) n += e.value; }).observe({ type: 'layout-shift', buffered: true });
			setTimeout(() => r(n), 200);
		}));
		assert.equal(shifts, 0, 'no layout shift');
		await page.context().close();
	});
}

// The banner's background colour, as relative luminance (0 black .. 1 white).
const luminance = (page) => h.banner(page).evaluate((el) => {
	let n = el, c;
	do { c = getComputedStyle(n).backgroundColor; n = n.parentElement; } while (n && /rgba\(0, 0, 0, 0\)|transparent/.test(c));
	const [r, g, b] = c.match(/[\d.]+/g).map(Number).map((x) => x / 255);
	return 0.2126 * r + 0.7152 * g + 0.0722 * b;
});

test('themes: light is light, dark is dark, auto follows prefers-color-scheme', async () => {
	const lum = {};
	for (const [theme, scheme] of [['light', 'dark'], ['dark', 'light'], ['auto', 'light'], ['auto', 'dark']]) {
		publish({ theme });
		const page = await h.newPage(browser, { colorScheme: scheme });
		await h.visit(page, srv.page());
		await h.banner(page).waitFor({ state: 'visible' });
		assert.equal(await h.banner(page).getAttribute('data-theme'), theme);
		lum[`${theme}/${scheme}`] = await luminance(page);
		await page.context().close();
	}
	assert.ok(lum['light/dark'] > 0.6, `light theme is light even in a dark scheme: ${lum['light/dark']}`);
	assert.ok(lum['dark/light'] < 0.3, `dark theme is dark: ${lum['dark/light']}`);
	assert.ok(lum['auto/light'] > 0.6, `auto in a light scheme: ${lum['auto/light']}`);
	assert.ok(lum['auto/dark'] < 0.3, `auto in a dark scheme: ${lum['auto/dark']}`);
});

test('the page\'s CSS does not reach the banner, nor the SDK\'s the page (open shadow root)', async () => {
	publish({ theme: 'light' });
	const page = await h.newPage(browser);
	const hostile = '<style>button { background: rgb(255, 0, 0) !important; font-size: 40px !important; } h2 { display: none !important; } p { color: rgb(0, 255, 0); }</style>';
	await h.visit(page, srv.page({ head: hostile, body: '<button id="own">page button</button>' }));
	await h.banner(page).waitFor({ state: 'visible' });
	const sr = await page.evaluate(() => document.getElementById('consent-host').shadowRoot !== null);
	assert.equal(sr, true, 'an open shadow root');
	const bg = await h.button(page, 'Accept all').evaluate((b) => getComputedStyle(b).backgroundColor);
	assert.notEqual(bg, 'rgb(255, 0, 0)');
	assert.ok(await h.banner(page).getByRole('heading').isVisible(), 'the page\'s h2 rule does not hide the title');
	assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('own')).backgroundColor), 'rgb(255, 0, 0)');
	assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('main p')).color), 'rgb(0, 255, 0)');
	await page.context().close();
});

test('strict CSP without unsafe-inline or unsafe-eval: no violation, the banner is styled and works', async () => {
	publish({ position: 'bottom-right' });
	const page = await h.newPage(browser, { viewport: { width: 1280, height: 800 } });
	const url = srv.page({ csp: true });
	// A listener from the start, before the SDK runs.
	await page.addInitScript(() => {
		window.violations = [];
		document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
	});
	const resp = await page.goto(url);
	assert.match(resp.headers()['content-security-policy'],
		/^script-src 'self' http:\/\/api\.test:\d+; connect-src http:\/\/api\.test:\d+; style-src 'self'$/);
	await h.ready(page);
	await h.banner(page).waitFor({ state: 'visible' });
	const styled = await h.banner(page).evaluate((b) => {
		const s = getComputedStyle(b);
		return { position: s.position, padding: s.paddingTop };
	});
	assert.ok(['fixed', 'absolute'].includes(styled.position), `banner positioned by the stylesheet: ${styled.position}`);
	const b = await h.banner(page).boundingBox();
	assert.ok(b.x > 640, 'the stylesheet placed it bottom-right');
	await h.button(page, 'Accept all').click();
	await page.waitForFunction(() => Consent.get().decided);
	await h.sleep(200);
	assert.deepEqual(await page.evaluate(() => window.violations), []);
	await page.context().close();
});

test('the CSP check can fail: an inline style attribute is reported on that page', async () => {
	const page = await h.newPage(browser);
	await page.addInitScript(() => {
		window.violations = [];
		document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective));
	});
	await page.goto(srv.page({ csp: true, body: '<div style="color:red">x</div>' }));
	await h.sleep(200);
	assert.ok((await page.evaluate(() => window.violations)).some((v) => v.startsWith('style-src')));
	await page.context().close();
});

test('right to left: a published Arabic translation gives lang=ar and dir=rtl to the banner and the dialog', async () => {
	const doc = h.modelConfig('opt_in');
	doc.content.translations.ar = {
		banner: { title: 'نحن نحترم خصوصيتك', description: 'نستخدم ملفات تعريف الارتباط.', acceptAllText: 'قبول الكل',
			rejectAllText: 'رفض الكل', customizeText: 'تخصيص', savePreferencesText: 'حفظ التفضيلات', closeText: 'إغلاق' },
		ui: { required: 'مطلوب' },
		categories: { analytics: { name: 'التحليلات', description: 'قياس الاستخدام' } },
	};
	srv.publish(doc);
	const page = await h.newPage(browser, { viewport: { width: 1280, height: 800 } });
	const st = await h.visit(page, srv.page({ attrs: { 'data-lang': 'ar' } }));
	assert.equal(st.language, 'ar');
	await h.banner(page).waitFor({ state: 'visible' });
	assert.equal(await h.banner(page).getAttribute('lang'), 'ar');
	assert.equal(await h.banner(page).getAttribute('dir'), 'rtl');
	assert.equal(await h.banner(page).evaluate((b) => getComputedStyle(b).direction), 'rtl');
	await h.button(page, 'تخصيص').click();
	await h.prefs(page).waitFor({ state: 'visible' });
	assert.equal(await h.prefs(page).getAttribute('dir'), 'rtl');
	assert.equal(await h.prefs(page).getAttribute('lang'), 'ar');
	assert.ok(await h.prefs(page).getByRole('switch', { name: 'التحليلات' }).count() === 1);
	await page.context().close();
	// And English stays left to right.
	const p2 = await h.newPage(browser);
	await h.visit(p2, srv.page({ attrs: { 'data-lang': 'en' } }));
	assert.equal(await h.banner(p2).getAttribute('dir'), 'ltr');
	await p2.context().close();
});

test('right to left from the server: resolvedDirection rtl for Sorani (ckb), a language the SDK does not list', async () => {
	const doc = h.modelConfig('opt_in');
	doc.content.translations.ckb = {
		banner: { title: 'ئێمە ڕێز لە تایبەتمەندیت دەگرین', acceptAllText: 'هەمووی پەسەند بکە', rejectAllText: 'هەمووی ڕەت بکەرەوە',
			customizeText: 'ڕێکخستن' },
	};
	srv.publish(doc);
	const page = await h.newPage(browser);
	const st = await h.visit(page, srv.page({ attrs: { 'data-lang': 'ckb' } }));
	assert.equal(st.language, 'ckb');
	await h.banner(page).waitFor({ state: 'visible' });
	assert.equal(await h.banner(page).getAttribute('lang'), 'ckb');
	assert.equal(await h.banner(page).getAttribute('dir'), 'rtl');
	await page.context().close();
});

test('branding: a free site shows a[data-branding], a paid one does not', async () => {
	publish();
	for (const [tier, want] of [['free', 1], ['paid', 0]]) {
		srv.setTier(tier);
		const page = await h.newPage(browser);
		await h.visit(page, srv.page());
		await h.banner(page).waitFor({ state: 'visible' });
		assert.equal(await h.banner(page).locator('a[data-branding]').count(), want, tier);
		if (want) {
			const link = h.banner(page).locator('a[data-branding]');
			assert.ok((await link.textContent()).trim().length > 0, 'the link names the product');
			assert.ok(await link.isVisible());
		}
		await page.context().close();
	}
	srv.setTier('paid');
});
