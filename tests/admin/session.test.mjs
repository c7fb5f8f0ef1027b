// session.test.mjs: the dashboard when its session asks for more (t0630):
// with the test clock (harness.mjs, start({ clock: true })), a sensitive
// action 5 minutes after signing in brings up the password dialog, and the
// action goes through once it is answered (a code of the moved clock's
// step); cancelled, nothing changes; the password changed from the
// account view; after 30 minutes idle the page says the session has ended
// and offers the sign-in again.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as h from './harness.mjs';

const OWNER = 'owner';
const PW = 'a passphrase long enough 12';
let srv, browser, page, secret;
const now = Math.floor(Date.now() / 1000);

before(async () => { srv = await h.start({ clock: true }); browser = await h.launch(); page = await h.newPage(browser); });
after(async () => { await browser?.close(); await srv?.stop(); });

const heading = () => page.locator('h1').first();

test('setup and sign-in at the test clock\'s time', async () => {
	srv.setNow(now);
	await page.goto(srv.admin);
	await page.getByLabel('Setup token').fill(readFileSync(srv.tokenFile, 'utf8').trim());
	await page.getByLabel('User name').fill(OWNER);
	await page.getByLabel('Password').fill(PW);
	await page.getByRole('button', { name: 'Create the first owner' }).click();
	secret = new URL(await page.getByTestId('otpauth').textContent()).searchParams.get('secret');
	await page.getByRole('button', { name: 'I have saved them: sign in' }).click();
	await page.getByLabel('User name').fill(OWNER);
	await page.getByLabel('Password').fill(PW);
	await page.getByLabel(/^Code from/).fill(h.totp(secret, now));
	await page.getByRole('button', { name: 'Sign in' }).click();
	await heading().filter({ hasText: 'Sites' }).waitFor();
});

async function addUser(name) {
	await page.goto(srv.admin + '#/users');
	await heading().filter({ hasText: 'Users' }).waitFor();
	await page.getByLabel('User name', { exact: true }).fill(name);
	await page.getByLabel('Password', { exact: true }).fill(`${name} has a long password`);
	await page.getByRole('button', { name: 'Add the user' }).click();
}
const listed = async (name) => (await page.getByTestId('users').locator('td', { hasText: new RegExp(`^${name}$`) }).count()) === 1;

test('a sensitive action after 5 minutes: the password dialog; cancelled, nothing is added', async () => {
	srv.setNow(now + 400);
	await addUser('later');
	await page.getByRole('dialog', { name: 'Confirm it is you' }).waitFor();
	assert.deepEqual(await h.axeBoth(page), [], 'the dialog is axe-clean, light and dark');
	await page.getByRole('button', { name: 'Cancel' }).click();
	await page.getByRole('alert').filter({ hasText: 'Re-authentication required' }).waitFor();
	assert.equal(await listed('later'), false);
});

test('answered with the password and a code, the action goes through', async () => {
	await page.getByRole('button', { name: 'Add the user' }).click();
	const dlg = page.getByRole('dialog', { name: 'Confirm it is you' });
	await dlg.waitFor();
	await dlg.getByLabel('Password').fill('not it');
	await dlg.getByRole('button', { name: 'Confirm' }).click();
	await dlg.getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor();
	await dlg.getByLabel('Password').fill(PW);
	await dlg.getByLabel('Code from the authenticator app').fill(h.totp(secret, now + 400));
	await dlg.getByRole('button', { name: 'Confirm' }).click();
	await page.getByRole('status').filter({ hasText: 'later added.' }).waitFor();
	// The status comes before the list is read again.
	await page.getByTestId('users').locator('td', { hasText: /^later$/ }).waitFor();
	assert.equal(await listed('later'), true);
});

test('the password changed from the account view (re-authenticated a moment ago); the new one signs in', async () => {
	const other = await h.newPage(browser);
	await page.getByRole('link', { name: 'Account' }).click();
	await heading().filter({ hasText: `Account: ${OWNER}` }).waitFor();
	await page.getByLabel('Current password').fill(PW);
	await page.getByLabel('New password').fill(`${PW} changed`);
	await page.getByRole('button', { name: 'Change the password' }).click();
	await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
	await other.goto(srv.admin);
	await other.getByLabel('User name').fill(OWNER);
	await other.getByLabel('Password').fill(PW);
	await other.getByLabel(/^Code from/).fill(h.totp(secret, now + 430));
	await other.getByRole('button', { name: 'Sign in' }).click();
	await other.getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor();
	await other.getByLabel('Password').fill(`${PW} changed`);
	await other.getByLabel(/^Code from/).fill(h.totp(secret, now + 460));
	srv.setNow(now + 460);
	await other.getByRole('button', { name: 'Sign in' }).click();
	await other.locator('h1', { hasText: 'Sites' }).waitFor();
	await other.context().close();
	srv.setNow(now + 400);
});

test('after 30 minutes idle the page says the session ended and shows the sign-in', async () => {
	srv.setNow(now + 400 + 1900);
	await page.getByRole('link', { name: 'Sites' }).click();
	await heading().filter({ hasText: 'Sign in' }).waitFor();
	await page.getByRole('status').filter({ hasText: 'Your session has ended' }).waitFor();
	assert.deepEqual(page.errors, []);
});
