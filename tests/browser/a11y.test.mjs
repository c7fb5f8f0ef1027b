// a11y.test.mjs: SDK.md 4, keyboard-only use, the dialog's focus trap and
// Escape, and axe-core's WCAG 2.1 A and AA rules in the light and dark themes.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const AXE = readFileSync(path.join(h.TOP, 'node_modules/axe-core/axe.min.js'), 'utf8');
let srv, browser;
before(async () => { srv = await h.startServer(); browser = await h.launch(); srv.publish(h.modelConfig('opt_in')); });
after(async () => { await browser?.close(); await srv?.stop(); });

// The focused element's accessible text, looking into the shadow root.
const focused = (page) => page.evaluate(() => {
	let a = document.activeElement;
	while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
	return a ? (a.getAttribute('data-category') || a.textContent.trim()) : null;
});
const focusInPrefs = (page) => page.evaluate(() => {
	const host = document.getElementById('consent-host');
	const a = host && host.shadowRoot.activeElement;
	return !!(a && a.closest('#consent-prefs'));
});

async function tabTo(page, name, max = 30) {
	for (let i = 0; i < max; i++) {
		await page.keyboard.press('Tab');
		if (await focused(page) === name) return true;
	}
	return false;
}

test('keyboard only: Tab reaches "Accept all", Enter decides', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await h.banner(page).waitFor({ state: 'visible' });
	assert.ok(await tabTo(page, 'Accept all'), 'Tab reaches Accept all');
	await page.keyboard.press('Enter');
	await page.waitForFunction(() => Consent.get().decided, null, { timeout: 3000 });
	assert.equal(await page.evaluate(() => Consent.allowed('analytics')), true);
	await page.context().close();
});

test('keyboard only: Tab reaches "Reject all", Space decides', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await h.banner(page).waitFor({ state: 'visible' });
	assert.ok(await tabTo(page, 'Reject all'));
	await page.keyboard.press('Space');
	await page.waitForFunction(() => Consent.get().decided, null, { timeout: 3000 });
	assert.equal(await page.evaluate(() => Consent.allowed('analytics')), false);
	await page.context().close();
});

test('keyboard only: Customize opens the dialog, focus moves in and stays in, Escape closes it and focus returns', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await h.banner(page).waitFor({ state: 'visible' });
	assert.ok(await tabTo(page, 'Customize'));
	await page.keyboard.press('Enter');
	await h.prefs(page).waitFor({ state: 'visible' });
	assert.equal(await h.prefs(page).getAttribute('role'), 'dialog');
	assert.equal(await h.prefs(page).getAttribute('aria-modal'), 'true');
	assert.ok(await focusInPrefs(page), 'focus moved into the dialog');
	const seen = new Set();
	for (let i = 0; i < 15; i++) {
		await page.keyboard.press('Tab');
		assert.ok(await focusInPrefs(page), `Tab ${i + 1}: focus stays in the dialog`);
		seen.add(await focused(page));
	}
	for (let i = 0; i < 5; i++) {
		await page.keyboard.press('Shift+Tab');
		assert.ok(await focusInPrefs(page), `Shift+Tab ${i + 1}: focus stays in the dialog`);
	}
	for (const want of ['functional', 'analytics', 'marketing', 'Save preferences', 'Close']) {
		assert.ok(seen.has(want), `Tab reaches ${want}`);
	}
	assert.ok(!seen.has('necessary'), 'the disabled exempt switch is not a tab stop');
	await page.keyboard.press('Escape');
	await h.prefs(page).waitFor({ state: 'detached' }).catch(() => h.prefs(page).waitFor({ state: 'hidden' }));
	assert.equal(await focused(page), 'Customize', 'focus returned to what opened the dialog');
	assert.equal(await page.evaluate(() => Consent.get().decided), false, 'Escape decides nothing');
	await page.context().close();
});

test('keyboard only: a center-modal banner takes focus and keeps it; Escape does not dismiss it', async () => {
	const doc = h.modelConfig('opt_in');
	doc.appearance = { position: 'center-modal', theme: 'light' };
	srv.publish(doc);
	try {
		const page = await h.newPage(browser);
		await h.visit(page, srv.page({ body: '<a href="#" id="before">a link of the page</a>' }));
		await h.banner(page).waitFor({ state: 'visible' });
		assert.equal(await h.banner(page).getAttribute('aria-modal'), 'true');
		const inBanner = () => page.evaluate(() => {
			const a = document.getElementById('consent-host').shadowRoot.activeElement;
			return !!(a && a.closest('#consent-banner'));
		});
		assert.ok(await inBanner(), 'focus moved into the modal banner');
		for (let i = 0; i < 8; i++) {
			await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
			assert.ok(await inBanner(), `key ${i + 1}: focus stays in the modal banner`);
		}
		await page.keyboard.press('Escape');
		assert.ok(await h.isShown(h.banner(page)), 'Escape leaves a consent question open');
		assert.ok(await tabTo(page, 'Reject all', 6));
		await page.keyboard.press('Enter');
		await page.waitForFunction(() => Consent.get().decided, null, { timeout: 5000 });
		assert.equal(await h.isShown(h.banner(page)), false);
		await page.context().close();
	} finally {
		srv.publish(h.modelConfig('opt_in'));
	}
});

test('keyboard only: switch a category with Space, save with Enter', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await h.banner(page).waitFor({ state: 'visible' });
	assert.ok(await tabTo(page, 'Customize'));
	await page.keyboard.press('Enter');
	await h.prefs(page).waitFor({ state: 'visible' });
	assert.ok(await tabTo(page, 'analytics', 10));
	await page.keyboard.press('Space');
	assert.ok(await tabTo(page, 'Save preferences', 10));
	await page.keyboard.press('Enter');
	await page.waitForFunction(() => Consent.get().decided, null, { timeout: 3000 });
	assert.deepEqual(await page.evaluate(() => Consent.get().categories),
		{ necessary: true, functional: false, analytics: true, marketing: false });
	await page.context().close();
});

test('keyboard only: a [data-consent-open] link opens the dialog with Enter; Escape returns focus to it', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page({ body: '<a href="#" id="settings" data-consent-open>Cookie settings</a>' }));
	await page.evaluate(() => Consent.rejectAll());
	await page.focus('#settings');
	await page.keyboard.press('Enter');
	await h.prefs(page).waitFor({ state: 'visible' });
	assert.ok(await focusInPrefs(page));
	await page.keyboard.press('Escape');
	await h.prefs(page).waitFor({ state: 'detached' }).catch(() => h.prefs(page).waitFor({ state: 'hidden' }));
	assert.equal(await page.evaluate(() => document.activeElement.id), 'settings');
	await page.context().close();
});

test('the banner is a dialog labelled by its title; its lang is the resolved language', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	const dlg = page.getByRole('dialog', { name: 'We value your privacy' });
	await dlg.waitFor({ state: 'visible' });
	assert.equal(await dlg.getAttribute('id'), 'consent-banner');
	assert.equal(await dlg.getAttribute('lang'), 'en');
	assert.notEqual(await dlg.getAttribute('aria-modal'), 'true', 'not modal unless center-modal');
	await page.context().close();
});

// axe-core run inside the shadow root's host, WCAG 2.1 A and AA.
async function axe(page, selector) {
	await page.addScriptTag({ content: AXE });
	return page.evaluate(async (sel) => {
		const r = await window.axe.run({ include: [{ fromShadowDom: ['#consent-host', sel] }] },
			{ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
		return { violations: r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
			passes: r.passes.length, inapplicable: r.inapplicable.length };
	}, selector);
}

for (const theme of ['light', 'dark']) {
	test(`axe-core: no WCAG 2.1 A/AA violation in the banner and the dialog, ${theme} theme`, async () => {
		const doc = h.modelConfig('opt_in');
		doc.appearance.theme = theme;
		srv.publish(doc);
		const page = await h.newPage(browser);
		await h.visit(page, srv.page());
		await h.banner(page).waitFor({ state: 'visible' });
		assert.equal(await h.banner(page).getAttribute('data-theme'), theme);
		const b = await axe(page, '#consent-banner');
		assert.deepEqual(b.violations, [], 'banner');
		assert.ok(b.passes > 5, `axe checked the banner (${b.passes} rules passed)`);
		await h.button(page, 'Customize').click();
		await h.prefs(page).waitFor({ state: 'visible' });
		const d = await axe(page, '#consent-prefs');
		assert.deepEqual(d.violations, [], 'dialog');
		assert.ok(d.passes > 5, `axe checked the dialog (${d.passes} rules passed)`);
		await page.context().close();
		srv.publish(h.modelConfig('opt_in'));
	});
}

test('axe-core finds a violation that is there, inside an open shadow root (the check can fail)', async () => {
	const page = await h.newPage(browser);
	await page.goto(srv.page());
	await page.evaluate(() => {
		const host = document.createElement('div');
		host.id = 'bad-host';
		document.body.append(host);
		host.attachShadow({ mode: 'open' }).innerHTML = '<div id="bad"><button></button><img src="data:,"></div>';
	});
	await page.addScriptTag({ content: AXE });
	const n = await page.evaluate(async () => (await window.axe.run({ include: [{ fromShadowDom: ['#bad-host', '#bad'] }] },
		{ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } })).violations.length);
	assert.ok(n >= 2, `axe reports the nameless button and image, got ${n}`);
	await page.context().close();
});
