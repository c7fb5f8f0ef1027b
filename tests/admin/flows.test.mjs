// flows.test.mjs: the dashboard in a real headless Chromium over HTTPS on
// loopback (t0630; harness.mjs): the first run with the token file, TOTP
// enrolment and sign-in by keyboard only, creating a site, its texts in
// German and Arabic from the built-in ones, an invalid field named in
// place, the preview against what the config endpoint answers once
// published, publish, diff, restore, pause, an editor and a viewer seeing
// what their role allows, sign-out; axe-core on every view in the light
// and the dark scheme; a text holding markup shown as text in the list,
// the editor and the preview.  The tests run in order over one dashboard.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const XSS = '<img src=x onerror="window.pwned=1">';
const NAME = `Shop ${XSS}`;
const DE_TITLE = `Deutscher Titel ${XSS}`;
const AR_TITLE = 'عنوان عربي للموقع';
const OWNER = 'owner@shop';
const PW = 'correct horse battery staple 42';
const i18n = (l) => JSON.parse(readFileSync(path.join(h.TOP, 'common/config/i18n', `${l}.json`), 'utf8'));
let srv, browser, page, secret;

before(async () => { srv = await h.start(); browser = await h.launch(); page = await h.newPage(browser); });
after(async () => { await browser?.close(); await srv?.stop(); });

const heading = () => page.locator('h1').first();
// GET URL from a page of the browser (its origin, its cookies): {status, body}.
const fetchIn = (p, url) => p.evaluate(async (u) => {
	const r = await fetch(u, { credentials: 'same-origin', cache: 'no-store' });
	return { status: r.status, body: await r.json().catch(() => null) };
}, url);
async function go(route, title) {
	await page.goto(srv.admin + route);
	await page.locator('h1', { hasText: title }).first().waitFor();
}
async function cleanAxe(name) {
	assert.deepEqual(await h.axeBoth(page), [], `${name}: axe-core finds no WCAG 2.1 A/AA violation, light or dark`);
}
const focusedLabel = () => h.focusedLabel(page);
const tabTo = (label) => h.tabTo(page, label, 40);
// A banner's texts in a document or frame: the SDK's shadow root.
const bannerText = (frame) => frame.locator('#consent-host').evaluate((host) => {
	const r = host.shadowRoot;
	return { text: r.textContent, imgs: r.querySelectorAll('img').length, dir: r.querySelector('[dir]')?.getAttribute('dir') ?? null };
});

test('setup: the page names the token file; by keyboard only, its token creates the first owner, whose factor is shown once as a QR code, its URI and ten recovery codes', async () => {
	await page.goto(srv.admin);
	await heading().filter({ hasText: 'Set up the dashboard' }).waitFor();
	assert.equal(await page.locator('p.file code').textContent(), srv.tokenFile, 'the page names the token file');
	await cleanAxe('setup');
	const token = readFileSync(srv.tokenFile, 'utf8').trim();
	await tabTo('Setup token');
	await page.keyboard.type(token);
	await tabTo('User name');
	await page.keyboard.type(OWNER);
	await tabTo('Password');
	await page.keyboard.type(PW);
	await page.keyboard.press('Enter');
	await heading().filter({ hasText: 'Two-factor sign-in' }).waitFor();
	const uri = await page.getByTestId('otpauth').textContent();
	assert.match(uri, /^otpauth:\/\/totp\//);
	secret = new URL(uri).searchParams.get('secret');
	assert.ok(secret, 'the URI carries the secret');
	assert.ok(await page.locator('svg.qr path').getAttribute('d'), 'the QR code is drawn');
	assert.equal(await page.getByTestId('recovery').locator('li').count(), 10, 'ten recovery codes');
	await cleanAxe('enrolment');
	assert.equal((await fetchIn(page, srv.api + '/admin/api/setup')).status, 404, 'setup is done');
});

test('sign-in by keyboard only: a wrong password is refused in place; the password with a code computed from the secret signs in', async () => {
	await tabTo('I have saved them: sign in');
	await page.keyboard.press('Enter');
	await heading().filter({ hasText: 'Sign in' }).waitFor();
	await cleanAxe('sign-in');
	await tabTo('User name');
	await page.keyboard.type(OWNER);
	await tabTo('Password');
	await page.keyboard.type('not the password at all');
	await page.keyboard.press('Enter');
	await page.getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor();
	await page.getByLabel('Password', { exact: true }).fill('');
	await page.getByLabel('Password', { exact: true }).focus();
	await page.keyboard.type(PW);
	await tabTo('Code from the authenticator app or a recovery code');
	await page.keyboard.type(h.totp(secret));
	await page.keyboard.press('Enter');
	await heading().filter({ hasText: 'Sites' }).waitFor();
	const cookies = await page.context().cookies();
	const c = cookies.find((x) => x.name === '__Host-consent_admin');
	assert.ok(c && c.secure && c.httpOnly && c.sameSite === 'Strict', 'the session cookie: Secure, HttpOnly, SameSite=Strict');
	await cleanAxe('sites, empty');
});

let scriptTag;
test('a new site: created from the list, its Site Settings show the key, the exact script tag and the domain', async () => {
	await page.getByLabel('Site key', { exact: true }).fill('shop');
	await page.getByLabel('Name', { exact: true }).fill(NAME);
	await page.getByLabel('First domain').fill('shop.test');
	await page.getByLabel('Tier').selectOption('paid');
	await page.getByRole('button', { name: 'Create the site' }).click();
	await page.getByTestId('site-key').waitFor();
	assert.equal(await heading().textContent(), NAME, 'the name is text');
	assert.equal(await page.getByTestId('site-key').textContent(), 'shop');
	scriptTag = await page.getByTestId('script-tag').textContent();
	assert.equal(scriptTag, `<script src="${srv.api}/sdk/consent.js" data-site-key="shop"></script>`);
	assert.deepEqual(await page.getByTestId('domains').locator('li span').allTextContents(), ['shop.test']);
	await cleanAxe('site settings');
	// A domain added as typed is stored normalised, and removed again.
	await page.getByLabel('Add a domain').fill('https://WWW.Shop.test:443/page');
	await page.getByRole('button', { name: 'Add', exact: true }).click();
	await page.getByRole('status').filter({ hasText: 'Domain www.shop.test added.' }).waitFor();
	await page.getByRole('button', { name: 'Remove www.shop.test' }).waitFor();
	assert.deepEqual(await page.getByTestId('domains').locator('li span').allTextContents(), ['shop.test', 'www.shop.test']);
	await page.getByRole('button', { name: 'Remove www.shop.test' }).click();
	await page.getByRole('status').filter({ hasText: 'Domain www.shop.test removed.' }).waitFor();
	await page.getByRole('button', { name: 'Remove www.shop.test' }).waitFor({ state: 'detached' });
	assert.deepEqual(await page.getByTestId('domains').locator('li span').allTextContents(), ['shop.test']);
	// The copy button puts the exact tag on the clipboard.
	await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(srv.admin).origin });
	await page.getByRole('button', { name: 'Copy the script tag' }).click();
	await page.getByText('Copied.').first().waitFor();
	assert.equal(await page.evaluate(() => navigator.clipboard.readText()), scriptTag);
});

let previewAnswer;
async function preview(lang, scheme = 'light') {
	await page.getByLabel('Language', { exact: true }).selectOption(lang);
	await page.getByLabel('Colour scheme').selectOption(scheme);
	const got = page.waitForResponse((r) => r.url().endsWith('/admin/api/sites/shop/preview'));
	await page.getByRole('button', { name: 'Check and preview' }).click();
	const res = await got;
	assert.equal(res.status(), 200, `preview ${lang}: ${await res.text()}`);
	previewAnswer = await res.json();
	const frame = page.frameLocator('[data-testid=preview]');
	await frame.locator('#consent-host').waitFor({ state: 'attached' });
	const f = page.frames().find((x) => x.url().includes('/admin/preview.html'));
	await f.waitForFunction(() => {
		const host = document.getElementById('consent-host');
		return host && host.shadowRoot && host.shadowRoot.textContent.length > 20;
	});
	return f;
}

test('the editor: German and Arabic start from the built-in texts and are edited; an invalid field is named where it is, before publishing', async () => {
	await go('#/sites/shop/editor', 'Banner editor');
	await page.getByLabel('Language to edit').waitFor();
	for (const [lang, title] of [['de', DE_TITLE], ['ar', AR_TITLE]]) {
		await page.getByLabel('Add a language').fill(lang);
		await page.getByRole('button', { name: 'Add', exact: true }).click();
		const field = page.getByLabel('banner › title', { exact: true });
		assert.equal(await field.inputValue(), i18n(lang).banner.title, `${lang} starts from its built-in title`);
		await field.fill(title);
	}
	assert.equal(await page.getByLabel('banner › title', { exact: true }).getAttribute('dir'), 'rtl', 'Arabic is edited right to left');
	// A list typed key by key (the commas stay while typing).
	const countriesField = page.getByLabel('Region 1: countries');
	await countriesField.fill('');
	await countriesField.pressSequentially('de, at ch');
	assert.equal(await countriesField.inputValue(), 'de, at ch');
	assert.deepEqual(JSON.parse(await page.getByLabel('The whole document').inputValue()).regions[0].countries, ['DE', 'AT', 'CH']);
	// ADMIN.md 7, the form over the whole document: a region's subdivisions too.
	const subs = page.getByLabel('Region 1: subdivisions');
	await subs.fill('us-ca, US-NY');
	assert.deepEqual(JSON.parse(await page.getByLabel('The whole document').inputValue()).regions[0].subdivisions, ['US-CA', 'US-NY']);
	await subs.fill('');
	assert.equal(JSON.parse(await page.getByLabel('The whole document').inputValue()).regions[0].subdivisions, undefined, 'none: the member is gone');
	// An invalid category id, named at its field by the API's path.
	await page.getByLabel('Category 2: id').fill('not valid!');
	await page.getByRole('button', { name: 'Check and preview' }).click();
	const bad = page.locator('[data-path="categories.1.id"]');
	await page.waitForFunction(() => document.querySelector('[data-path="categories.1.id"]')?.getAttribute('aria-invalid') === 'true');
	assert.equal(await bad.evaluate((e) => e === document.activeElement), true, 'the invalid field is focused');
	const err = await page.getByTestId('editor-error').textContent();
	assert.match(err, /categories\[1\]\.id|categories\.1\.id/, `the error names the field: ${err}`);
	const under = await page.locator('.field', { has: bad }).locator('.field-error').textContent();
	assert.ok(under.length > 0, 'the message stands under the field');
	await cleanAxe('editor with an error');
	await bad.fill('functional');
	// The markup in the German title is text in the editor's raw JSON too.
	assert.ok((await page.getByLabel('The whole document').inputValue()).includes(JSON.stringify(DE_TITLE).slice(1, -1)));
});

test('the preview: the real consent.js in a sandboxed frame shows the draft in German and Arabic, light and dark, desktop and mobile', async () => {
	const frameEl = page.locator('[data-testid=preview]');
	assert.equal(await frameEl.getAttribute('sandbox'), 'allow-scripts', 'sandboxed without allow-same-origin');
	let f = await preview('de');
	let b = await bannerText(f);
	assert.ok(b.text.includes(DE_TITLE), 'the German title, markup as text');
	assert.equal(b.imgs, 0, 'no element made of the text');
	assert.equal(previewAnswer.resolvedLanguage, 'de');
	// ADMIN.md 7: what the frame's script can reach, not only its attribute.
	const reach = await f.evaluate(() => {
		const tryIt = (fn) => { try { return String(fn()); } catch (e) { return 'refused'; } };
		return { origin: self.origin, cookie: tryIt(() => document.cookie),
			parent: tryIt(() => parent.document.title), storage: tryIt(() => localStorage.length) };
	});
	assert.deepEqual(reach, { origin: 'null', cookie: 'refused', parent: 'refused', storage: 'refused' },
		'the frame has an opaque origin: not the dashboard\'s document, cookie or storage');
	assert.equal(await f.evaluate(() => document.documentElement.dataset.scheme), 'light');
	await page.getByLabel('Visitor\'s country').fill('US');
	await preview('de');
	assert.equal(previewAnswer.resolvedRegion, 'us_state_laws', 'a visitor in the US: the US region');
	await page.getByLabel('Visitor\'s country').fill('');
	f = await preview('ar', 'dark');
	b = await bannerText(f);
	assert.ok(b.text.includes(AR_TITLE), 'the Arabic title');
	assert.equal(previewAnswer.resolvedDirection, 'rtl');
	assert.equal(await f.evaluate(() => document.documentElement.dataset.scheme), 'dark', 'the dark scheme');
	await page.getByLabel('Width').selectOption('mobile');
	assert.ok((await frameEl.boundingBox()).width <= 380, 'the mobile width');
	await page.getByLabel('Width').selectOption('desktop');
	assert.ok((await frameEl.boundingBox()).width > 380, 'the desktop width');
	assert.equal(await f.evaluate(() => window.pwned), undefined);
	assert.equal(await page.evaluate(() => window.pwned), undefined);
	await cleanAxe('editor with the preview');
});

test('publishing: the config endpoint then answers what the preview showed, and the demo page shows that banner', async () => {
	const answers = {};
	for (const lang of ['de', 'ar']) { await preview(lang); answers[lang] = previewAnswer; }
	await page.getByRole('button', { name: 'Publish' }).click();
	await page.getByRole('status').filter({ hasText: 'Version 1 published.' }).waitFor();
	// The site's own page, with the tag Site Settings gave; the endpoint
	// asked from there, as the SDK asks it.
	const visitor = await h.newPage(browser, { locale: 'de-DE' });
	await visitor.goto(srv.demo(scriptTag.replace('data-site-key="shop"', 'data-site-key="shop" data-lang="de"'), 'de'));
	for (const lang of ['de', 'ar']) {
		const r = await fetchIn(visitor, `${srv.api}/functions/v1/config?site_key=shop&lang=${lang}`);
		assert.equal(r.status, 200);
		const live = r.body;
		for (const k of ['resolvedContent', 'resolvedUi', 'resolvedLanguage', 'resolvedDirection', 'sdkCategories', 'version']) {
			assert.deepEqual(live[k], answers[lang][k], `${lang}: ${k} of the endpoint is the preview's`);
		}
	}
	await visitor.locator('#consent-host').waitFor({ state: 'attached' });
	await visitor.waitForFunction(() => document.getElementById('consent-host')?.shadowRoot?.textContent.length > 20);
	const onSite = await bannerText(visitor);
	const f = await preview('de');
	assert.equal((await bannerText(f)).text, onSite.text, 'the preview shows what the site shows');
	assert.equal(onSite.imgs, 0);
	await visitor.context().close();
});

test('versions: who and when, a diff of two, restore after a confirmation', async () => {
	await page.getByLabel('Theme').selectOption('dark');
	await page.getByRole('button', { name: 'Publish' }).click();
	await page.getByRole('status').filter({ hasText: 'Version 2 published.' }).waitFor();
	await go('#/sites/shop/versions', 'Versions');
	const rows = page.getByTestId('versions').locator('tbody tr');
	await rows.first().waitFor();
	assert.equal(await rows.count(), 2);
	assert.deepEqual(await rows.locator('td:nth-child(3)').allTextContents(), [OWNER, OWNER], 'who published each');
	assert.match(await rows.first().locator('td:nth-child(2)').textContent(), /\d/, 'when');
	await page.getByRole('button', { name: 'Show the differences' }).click();
	const diff = await page.getByTestId('diff').textContent();
	assert.match(diff, /^- +"theme": "light"/m);
	assert.match(diff, /^\+ +"theme": "dark"/m);
	assert.ok(diff.includes(DE_TITLE.replace(/"/g, '\\"')), 'the texts, markup as text');
	await cleanAxe('versions with a diff');
	await page.getByRole('button', { name: 'Restore version 1' }).click();
	await page.getByRole('dialog').waitFor();
	await cleanAxe('the restore dialog');
	await page.getByRole('button', { name: 'Publish it again' }).click();
	await page.getByRole('status').filter({ hasText: 'Version 1 published again as version 3.' }).waitFor();
	const live = (await fetchIn(page, `${srv.api}/admin/api/sites/shop/configs/live`)).body;
	assert.equal(live.version, 3);
	assert.equal(live.document.appearance.theme, 'light', 'version 1\'s document is live again');
	// ADMIN.md 7: a diff of any two versions, not only the newest two.
	await page.getByTestId('versions').locator('tbody tr').nth(2).waitFor();
	const compare = async (a, b) => {
		await page.getByLabel('From', { exact: true }).selectOption(a);
		await page.getByLabel('To', { exact: true }).selectOption(b);
		await page.getByRole('button', { name: 'Show the differences' }).click();
		await page.locator(`[aria-label="Differences from version ${a} to ${b}"]`).waitFor();
		return page.getByTestId('diff').textContent();
	};
	assert.doesNotMatch(await compare('1', '3'), /^[-+] /m, 'version 1 and its restore as 3: no difference');
	const d23 = await compare('2', '3');
	assert.match(d23, /^- +"theme": "dark"/m);
	assert.match(d23, /^\+ +"theme": "light"/m);
});

test('pause by keyboard: the dialog cancels with Escape, confirms with Enter; resume', async () => {
	await go('#/sites/shop', NAME);
	await page.getByRole('button', { name: 'Pause the site…' }).focus();
	await page.keyboard.press('Enter');
	await page.getByRole('dialog').waitFor();
	await page.keyboard.press('Escape');
	await page.getByRole('dialog').waitFor({ state: 'hidden' });
	assert.equal(await page.getByTestId('state').textContent(), 'Live', 'cancelled: still live');
	assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Pause the site…', 'focus returns');
	await page.keyboard.press('Enter');
	await page.getByRole('dialog').waitFor();
	await cleanAxe('the pause dialog');
	await tabTo('Pause');
	await page.keyboard.press('Enter');
	await page.getByTestId('state').filter({ hasText: 'Paused' }).waitFor();
	const site = (await fetchIn(page, `${srv.api}/admin/api/sites/shop`)).body;
	assert.equal(site.paused, true);
	await page.getByRole('button', { name: 'Resume the site…' }).click();
	await page.getByRole('button', { name: 'Resume', exact: true }).click();
	await page.getByTestId('state').filter({ hasText: 'Live' }).waitFor();
});

test('markup as text: the site\'s name in the list, the published German title in the editor', async () => {
	await go('#/sites', 'Sites');
	const cell = page.getByTestId('sites').locator('tbody tr td').first();
	assert.equal(await cell.textContent(), NAME);
	assert.equal(await page.getByTestId('sites').locator('img').count(), 0);
	await cleanAxe('sites list');
	await go('#/sites/shop/editor', 'Banner editor');
	await page.getByLabel('Language to edit').selectOption('de');
	assert.equal(await page.getByLabel('banner › title', { exact: true }).inputValue(), DE_TITLE, 'the live document\'s title, as typed');
	assert.equal(await page.locator('main img').count(), 0, 'no element made of a text');
	assert.equal(await page.evaluate(() => window.pwned), undefined);
});

test('roles: an editor and a viewer, added by the owner, see only what their role allows', async () => {
	await go('#/users', 'Users');
	for (const [u, role] of [['ed', 'editor'], ['vi', 'viewer']]) {
		await page.getByLabel('User name', { exact: true }).fill(u);
		await page.getByLabel('Password', { exact: true }).fill(`${u} long enough password 7`);
		await page.getByLabel('Site key', { exact: true }).fill('shop');
		await page.getByLabel('Role', { exact: true }).selectOption(role);
		await page.getByRole('button', { name: 'Add the user' }).click();
		await page.getByTestId('users').locator('td', { hasText: new RegExp(`^${u}$`) }).waitFor();
	}
	await cleanAxe('users');
	// A role changed: vi is viewer of shop, then editor, then viewer again.
	const roleOf = async (u) => page.getByTestId('users').locator('tr', { has: page.locator('td', { hasText: new RegExp(`^${u}$`) }) }).locator('td').nth(1).textContent();
	for (const role of ['editor', 'viewer']) {
		await page.getByLabel('Account').selectOption('vi');
		await page.getByLabel('Site key of the role').fill('shop');
		await page.getByLabel('New role').selectOption(role);
		await page.getByRole('button', { name: 'Change the role' }).click();
		for (let i = 0; i < 50 && await roleOf('vi') !== `shop: ${role}`; i++) await h.sleep(100);
		assert.equal(await roleOf('vi'), `shop: ${role}`);
	}
	for (const [u, role] of [['ed', 'editor'], ['vi', 'viewer']]) {
		const p = await h.newPage(browser);
		await p.goto(srv.admin);
		await p.getByLabel('User name').fill(u);
		await p.getByLabel('Password', { exact: true }).fill(`${u} long enough password 7`);
		await p.getByRole('button', { name: 'Sign in' }).click();
		await p.locator('h1', { hasText: 'Sites' }).waitFor();
		assert.equal(await p.getByRole('link', { name: 'Users' }).count(), 0, `${u}: no Users view`);
		assert.equal(await p.getByRole('button', { name: 'Create the site' }).count(), 0, `${u}: cannot create sites`);
		assert.equal(await p.getByTestId('sites').locator('tbody td').nth(4).textContent(), role);
		await p.goto(srv.admin + '#/sites/shop');
		await p.getByTestId('site-key').waitFor();
		assert.equal(await p.getByLabel('Tier').isDisabled(), true, `${u}: the tier is the owner's`);
		assert.equal(await p.getByRole('button', { name: 'Pause the site…' }).count(), role === 'editor' ? 1 : 0);
		assert.equal(await p.getByLabel('Add a domain').count(), role === 'editor' ? 1 : 0);
		await p.goto(srv.admin + '#/sites/shop/editor');
		await p.getByLabel('Language to edit').waitFor();
		assert.equal(await p.getByRole('button', { name: 'Publish' }).count(), role === 'editor' ? 1 : 0, `${u}: publish`);
		await p.goto(srv.admin + '#/users');
		await p.locator('h1', { hasText: 'Sites' }).waitFor();
		await p.context().close();
	}
});

test('account: its sessions listed; sign-out ends the session on the server', async () => {
	await go('#/account', `Account: ${OWNER}`);
	await page.getByTestId('sessions').locator('tbody tr').first().waitFor();
	assert.ok((await page.getByTestId('sessions').textContent()).includes('This session'));
	await cleanAxe('account');
	await page.getByRole('button', { name: 'Sign out' }).click();
	await heading().filter({ hasText: 'Sign in' }).waitFor();
	assert.equal((await fetchIn(page, `${srv.api}/admin/api/session`)).status, 401, 'signed out');
	assert.deepEqual(page.errors, [], 'no script error in the page');
	assert.deepEqual(page.csp, [], 'nothing the page does is refused by its CSP');
});

test('server logs: no CGI error, no sanitizer report', () => {
	assert.deepEqual(srv.logs().split('\n').filter((l) => /Sanitizer|runtime error:|\(mod_cgi\.c/.test(l)), []);
});
