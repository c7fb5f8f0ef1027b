// Unit tests of the consent entry's body (SDK.md 6), no browser.
import test from 'node:test';
import assert from 'node:assert/strict';
import { entryBody } from '../../sdk/entry.js';

const answer = {
  version: 7, resolvedRegion: 'gdpr', resolvedLanguage: 'de',
  config: { regions: [{ id: 'ccpa', consentModel: 'opt_out' }, { id: 'gdpr', consentModel: 'opt_in' }] },
};
const env = { key: 'K', anonId: 'A', position: 'center-modal', page: 'https://s.test/p', language: 'de-DE',
  version: '1.2.3', t0: 100 };

test('entryBody: every field SDK.md 6 lists, from the state and the page', () => {
  const st = { answer, allowed: { analytics: true, marketing: false }, prefsOpened: true, bannerAt: 350.4 };
  const b = entryBody(st, env, 'initial', { event_action: 'partial', interaction: 'save_preferences' });
  assert.deepEqual(b, {
    site_key: 'K', anon_id: 'A', event_type: 'initial', categories: { analytics: true, marketing: false },
    config_version: 7, region: 'gdpr', regulation: 'gdpr', consent_model: 'opt_in', preferences_opened: true,
    banner_position: 'center-modal', page_url: 'https://s.test/p', sdk_version: '1.2.3', language: 'de-DE',
    resolved_language: 'de', event_action: 'partial', interaction: 'save_preferences', banner_load_time_ms: 250,
  });
  assert.notEqual(b.categories, st.allowed, 'a copy of the categories');
});

test('entryBody: no banner, no region, an unknown model and long fields', () => {
  const a = { ...answer, resolvedRegion: null, config: { regions: [{ id: 'x', consentModel: 'weird' }] } };
  const b = entryBody({ answer: a, allowed: {}, prefsOpened: false, bannerAt: 0 },
    { ...env, page: 'https://s.test/' + 'p'.repeat(3000), language: 'x'.repeat(50) }, 'impression', {});
  assert.equal(b.banner_load_time_ms, undefined);
  assert.equal(b.region, undefined);
  assert.equal(b.regulation, undefined);
  assert.equal(b.consent_model, undefined);
  assert.equal(b.page_url.length, 2000);
  assert.equal(b.language.length, 35);
  assert.equal(entryBody({ answer, allowed: {}, bannerAt: 0 }, { ...env, language: '' }, 'update', {}).language,
    undefined, 'no navigator.language: left out');
});
