// install.test.mjs: what the setup view shows of a release's first run
// (t0630; harness.mjs): the installer's 503 sentence as an alert with a
// way to try again, and a token file named relative to the upload with
// the hint about hidden files.  The API's answers are the ones t0741
// checks the program gives; here the page is given them (page.route), so
// that the page's side is checked apart from the server's permissions.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';

const FIX = 'The dashboard cannot write the folder data/ of your upload, where the database goes. ' +
	'Set data/ to mode 755 (read, write and execute for its owner) with your FTP client. Then reload this page.';
let srv, browser, page;

before(async () => { srv = await h.start(); browser = await h.launch(); page = await h.newPage(browser); });
after(async () => { await browser?.close(); await srv?.stop(); });

// GET setup answers status and body; every other request goes through.
async function setupAnswers(status, body) {
	await page.unroute('**/admin/api/setup');
	await page.route('**/admin/api/setup', (r) => (r.request().method() === 'GET'
		? r.fulfill({ status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) })
		: r.continue()));
}

test('a 503 of GET setup: the sentence as an alert, a button to try again that asks again, no form', async () => {
	await setupAnswers(503, { error: FIX });
	await page.goto(srv.admin);
	await page.locator('h1', { hasText: 'Set up the dashboard' }).waitFor();
	assert.equal(await page.getByRole('alert').textContent(), FIX, 'the sentence, as the API wrote it');
	assert.equal(await page.locator('form').count(), 0, 'no setup form while the installation cannot go on');
	assert.deepEqual(await h.axeBoth(page), [], 'axe-core finds no WCAG 2.1 A/AA violation');
	await setupAnswers(200, { needed: true, token_file: 'data/.consent-setup-token' });
	await page.getByRole('button', { name: 'Try again' }).click();
	await page.getByLabel('Setup token').waitFor();
	assert.deepEqual(page.errors, [], 'no script error');
});

test('a token file relative to the upload: named as it is, by FTP in the uploaded folder, hidden files shown', async () => {
	await setupAnswers(200, { needed: true, token_file: 'data/.consent-setup-token' });
	await page.goto(srv.admin);
	await page.getByLabel('Setup token').waitFor();
	assert.equal(await page.getByTestId('token-file').textContent(), 'data/.consent-setup-token');
	const text = await page.locator('main').textContent();
	assert.match(text, /by FTP, in the folder you uploaded \(the one holding cgi-bin\)/);
	assert.match(text, /let your FTP client show hidden files/);
	await page.unroute('**/admin/api/setup');
	await page.goto(srv.admin);
	await page.getByLabel('Setup token').waitFor();
	assert.equal(await page.getByTestId('token-file').textContent(), srv.tokenFile, 'an installed build: the absolute path');
	assert.doesNotMatch(await page.locator('main').textContent(), /hidden files/, 'and no FTP hint');
});
