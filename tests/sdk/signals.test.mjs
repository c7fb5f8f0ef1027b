// Unit tests of Consent Mode values, the rules held by with
// googleConsentModeAdvanced and the sync fragment (SDK.md 7, 9).
import test from 'node:test';
import assert from 'node:assert/strict';
import { gcmMapping, gcmValues, heldRules } from '../../sdk/signals.js';
import { syncId } from '../../sdk/inventory.js';

test('gcmMapping: true is the default mapping, an object replaces it, else off', () => {
  assert.deepEqual(Object.keys(gcmMapping(true)).sort(), ['ad_personalization', 'ad_storage', 'ad_user_data',
    'analytics_storage', 'functionality_storage', 'personalization_storage']);
  assert.deepEqual(gcmMapping({ analytics_storage: 'stats' }), { analytics_storage: 'stats' });
  assert.equal(gcmMapping(false), null);
  assert.equal(gcmMapping(undefined), null);
  assert.equal(gcmMapping([]), null);
});

test('gcmValues: granted exactly when the category is allowed, security_storage always', () => {
  const allowed = (c) => c === 'analytics';
  const v = gcmValues(gcmMapping(true), allowed);
  assert.equal(v.analytics_storage, 'granted');
  assert.equal(v.ad_storage, 'denied');
  assert.equal(v.functionality_storage, 'denied');
  assert.equal(v.security_storage, 'granted');
  assert.deepEqual(gcmValues({ ad_storage: 'analytics' }, allowed), { ad_storage: 'granted', security_storage: 'granted' });
});

test('heldRules: googleConsentModeAdvanced leaves out the rules of Google\'s tag hosts and hosts under them, no other', () => {
  const rules = ['googletagmanager.com', '*.Google-Analytics.com', 'analytics.google.com', 'www.googletagmanager.com',
    'notgoogle-analytics.com', 'google.com', 'doubleclick.net', 'googletagmanager.com.example', '*.']
    .map((pattern) => ({ pattern, category: 'marketing' }));
  const patterns = (rs) => rs.map((r) => r.pattern);
  assert.deepEqual(patterns(heldRules(rules, { googleConsentModeAdvanced: true })),
    ['notgoogle-analytics.com', 'google.com', 'doubleclick.net', 'googletagmanager.com.example', '*.']);
  assert.equal(heldRules(rules, {}), rules, 'without the setting: the answer\'s rules');
  assert.equal(heldRules(rules, { googleConsentModeAdvanced: 'true' }), rules, 'only true turns it on');
  assert.deepEqual(heldRules([null, { category: 'analytics' }], { googleConsentModeAdvanced: true }),
    [null, { category: 'analytics' }], 'a rule without a pattern is not Google\'s');
  assert.deepEqual(heldRules(undefined, { googleConsentModeAdvanced: true }), []);
});

test('syncId: only a UUID in #consent-sync=', () => {
  assert.equal(syncId('#consent-sync=0F8FAD5B-D9CB-469F-A165-70867728950E'), '0f8fad5b-d9cb-469f-a165-70867728950e');
  assert.equal(syncId('#x=1&consent-sync=0f8fad5b-d9cb-469f-a165-70867728950e'), '0f8fad5b-d9cb-469f-a165-70867728950e');
  assert.equal(syncId('#consent-sync=nope'), null);
  assert.equal(syncId(''), null);
  assert.equal(syncId('#consent-sync=0f8fad5b-d9cb-469f-a165-70867728950e"><'), null);
});
