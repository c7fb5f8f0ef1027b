// flow.mjs: the customer's first hour with a release uploaded to shared
// hosting, in a real headless Chromium (t0835 runs it against its Apache
// with suEXEC): the dashboard's first run names the token file, which is
// read as the customer reads it by FTP (a command run as the customer);
// the first owner, TOTP enrolment with a code computed from the secret,
// sign-in; a site; its preview; publish; a page of the same web space
// with the script tag Site Settings shows (written as the customer) shows
// the banner; a decision; that decision in the dashboard's consent log.
// Prints TAP lines ("ok - ", "not ok - "); exits 1 on the first failure.
//
//   node tests/dist/flow.mjs
//
// Its environment: DASHBOARD (http://localhost:PORT/~customer/consent/admin/:
// localhost, so that the Secure session cookie is kept over plain HTTP),
// SHOP_URL (the page's address, http://shop.test:PORT/~customer/shop.html:
// another host of the same server, mapped to 127.0.0.1), SHOP_FILE (that
// page's file), AS_CUSTOMER (a command prefix, space-separated, that runs
// a program as the customer), and SECRET_FILE, optional: where the TOTP
// secret is written.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import * as h from '../admin/harness.mjs';

const env = (k) => {
	if (!process.env[k]) throw new Error(`${k} is not set`);
	return process.env[k];
};
const DASHBOARD = env('DASHBOARD');
const SHOP_URL = env('SHOP_URL');
const SHOP_FILE = env('SHOP_FILE');
const AS_CUSTOMER = env('AS_CUSTOMER').split(' ');
const OWNER = 'owner@shop';
const PW = 'correct horse battery staple 42';

const asCustomer = (args, input) => execFileSync(AS_CUSTOMER[0], AS_CUSTOMER.slice(1).concat(args),
	{ input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
class Reported extends Error {}
function ok(cond, desc) {
	console.log(`${cond ? 'ok' : 'not ok'} - ${desc}`);
	if (!cond) throw new Reported(desc);
}

const browser = await chromium.launch({
	executablePath: h.CHROMIUM,
	headless: true,
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
		'--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP *.test 127.0.0.1'],
});
let failed = false;
try {
	const page = await h.newPage(browser);
	// Each request a fresh process under suexec, the sign-in's argon2id
	// among them: on a loaded machine a step can take more than the
	// default 30 s.
	page.setDefaultTimeout(90000);
	const heading = () => page.locator('h1').first();

	await page.goto(DASHBOARD);
	await heading().filter({ hasText: 'Set up the dashboard' }).waitFor();
	const named = (await page.locator('p.file code').textContent()).trim();
	ok(named === 'data/.consent-setup-token', `the installer names the token file in the upload's terms: ${named}`);
	// The token, as the customer reads it: by its own account, from data/.
	const token = asCustomer(['cat', env('TOKEN_FILE')]).trim();
	ok(token.length >= 20, 'the token file read as the customer');
	await page.getByLabel('Setup token').fill(token);
	await page.getByLabel('User name').fill(OWNER);
	await page.getByLabel('Password', { exact: true }).fill(PW);
	await page.getByLabel('Password', { exact: true }).press('Enter');
	await heading().filter({ hasText: 'Two-factor sign-in' }).waitFor();
	const secret = new URL(await page.getByTestId('otpauth').textContent()).searchParams.get('secret');
	ok(Boolean(secret), 'the first owner made; the enrolment shows the TOTP secret');
	// The authenticator app's copy, for t0835's sign-in after an upgrade.
	if (process.env.SECRET_FILE) writeFileSync(process.env.SECRET_FILE, secret);

	await page.getByRole('button', { name: 'I have saved them: sign in' }).click();
	await heading().filter({ hasText: 'Sign in' }).waitFor();
	await page.getByLabel('User name').fill(OWNER);
	await page.getByLabel('Password', { exact: true }).fill(PW);
	await page.getByLabel('Code from the authenticator app or a recovery code').fill(h.totp(secret));
	await page.getByLabel('Code from the authenticator app or a recovery code').press('Enter');
	await heading().filter({ hasText: 'Sites' }).waitFor();
	ok(true, 'signed in with the password and a TOTP code (the session cookie kept over http://localhost)');

	await page.getByLabel('Site key', { exact: true }).fill('shop');
	await page.getByLabel('Name', { exact: true }).fill('Shop');
	await page.getByLabel('First domain').fill('shop.test');
	await page.getByRole('button', { name: 'Create the site' }).click();
	await page.getByTestId('site-key').waitFor();
	const tag = (await page.getByTestId('script-tag').textContent()).trim();
	const folder = new URL('..', DASHBOARD).href.replace(/\/$/, '');
	ok(tag === `<script src="${folder}/sdk/consent.js" data-api="${folder}" data-site-key="shop"></script>`,
		`Site Settings' script tag names the release's folder: ${tag}`);

	// The editor's preview: the release's own consent.js (sdk/consent.js
	// under the folder) in the sandboxed frame.
	await page.goto(DASHBOARD + '#/sites/shop/editor');
	await page.getByRole('button', { name: 'Check and preview' }).click();
	await page.frameLocator('[data-testid=preview]').locator('#consent-host').waitFor({ state: 'attached' });
	const frame = page.frames().find((f) => f.url().includes('/admin/preview.html'));
	await frame.waitForFunction(() => document.getElementById('consent-host')?.shadowRoot?.textContent.length > 20);
	ok(true, 'the editor\'s preview shows the banner with the release\'s consent.js');
	await page.getByRole('button', { name: 'Publish' }).click();
	await page.getByRole('status').filter({ hasText: 'Version 1 published.' }).waitFor();
	ok(true, 'the built-in banner published as version 1');

	// The customer's own page, beside the release in public_html.
	asCustomer(['sh', '-c', `cat > '${SHOP_FILE}'`],
		`<!doctype html><html lang="en"><head><meta charset="utf-8">${tag}<title>Shop</title></head><body><h1>Shop</h1></body></html>\n`);
	const visitor = await h.newPage(browser);
	await visitor.goto(SHOP_URL);
	await visitor.waitForFunction(() => document.getElementById('consent-host')?.shadowRoot?.textContent.length > 20);
	ok(true, 'the page of the same web space with the script tag shows the banner');
	const sent = visitor.waitForResponse((r) => r.url().endsWith('/functions/v1/consent') && r.request().method() === 'POST');
	await visitor.getByRole('button', { name: 'Accept all' }).click();
	const res = await sent;
	ok(res.status() === 201, `Accept all: POST ${new URL(res.url()).pathname} answered ${res.status()}`);
	ok(visitor.errors.length === 0, `no error on the page (${visitor.errors.join('; ')})`);

	await page.goto(DASHBOARD + '#/sites/shop/log');
	await page.getByTestId('entries').waitFor();
	const rows = page.getByTestId('entries').locator('tbody tr');
	await rows.filter({ hasText: 'opt_in' }).first().waitFor();
	const row = await rows.filter({ hasText: 'opt_in' }).first().textContent();
	ok(/initial/.test(row) && row.includes(SHOP_URL), `the decision in the dashboard's consent log: ${row.replace(/\s+/g, ' ').slice(0, 120)}`);
	ok(page.errors.length === 0 && page.csp.length === 0, `the dashboard: no error, no CSP refusal (${page.errors.concat(page.csp).join('; ')})`);
} catch (e) {
	failed = true;
	// The first line and the step waited for (Playwright's call log).
	const lines = String(e.message || e).split('\n');
	const step = lines.find((l) => /waiting for/.test(l)) || '';
	if (!(e instanceof Reported)) console.log(`not ok - the flow: ${lines[0]} ${step.trim()}`);
} finally {
	await browser.close();
}
process.exit(failed ? 1 : 0);
