// Unit tests of the SDK's pure logic: models, validity, decisions (SDK.md 3).
import test from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../sdk/state.js';

const cat = (id, consentModel) => ({ id, name: id, description: '', consentModel });
const mixed = [cat('necessary', 'exempt'), cat('functional', 'notice_only'),
  cat('analytics', 'opt_in'), cat('marketing', 'opt_out'), cat('chat', 'notice_required')];
const DAY = 86400000;

test('bannerKind: none when every category is exempt', () => {
  assert.equal(S.bannerKind([cat('a', 'exempt')]), 'none');
  assert.equal(S.bannerKind([]), 'none');
});

test('bannerKind: notice when every non-exempt category has a notice model', () => {
  assert.equal(S.bannerKind([cat('a', 'exempt'), cat('b', 'notice'), cat('c', 'notice_required'), cat('d', 'notice_only')]), 'notice');
});

test('bannerKind: choice when the models are mixed', () => {
  assert.equal(S.bannerKind(mixed), 'choice');
  assert.equal(S.bannerKind([cat('a', 'opt_out')]), 'choice');
});

test('allowedBefore follows the model table, GPC turning opt_out off', () => {
  const table = { exempt: true, opt_in: false, opt_out: true, notice: true, notice_only: true, notice_required: false };
  for (const [m, v] of Object.entries(table)) assert.equal(S.allowedBefore(m, false), v, m);
  assert.equal(S.allowedBefore('opt_out', true), false);
  assert.equal(S.allowedBefore('something_new', false), false);
});

test('currentCategories before a decision', () => {
  assert.deepEqual(S.currentCategories(mixed, null, false),
    { necessary: true, functional: true, analytics: false, marketing: true, chat: false });
  assert.deepEqual(S.currentCategories(mixed, null, true),
    { necessary: true, functional: true, analytics: false, marketing: false, chat: false });
});

test('currentCategories from a decision: switches kept, notice_required allowed once answered', () => {
  const rec = S.record('id', 0, 365, 1, { necessary: false, functional: false, analytics: true, marketing: false, chat: false });
  assert.deepEqual(S.currentCategories(mixed, rec, false),
    { necessary: true, functional: true, analytics: true, marketing: false, chat: true });
});

test('decide: accept all, reject all, save with unnamed ids kept', () => {
  const cur = S.currentCategories(mixed, null, false);
  assert.deepEqual(S.decide(mixed, cur, 'accept', null, false),
    { necessary: true, functional: true, analytics: true, marketing: true, chat: true });
  assert.deepEqual(S.decide(mixed, cur, 'reject', null, false),
    { necessary: true, functional: true, analytics: false, marketing: false, chat: true });
  assert.deepEqual(S.decide(mixed, cur, 'save', { analytics: true }, false),
    { necessary: true, functional: true, analytics: true, marketing: true, chat: true });
  assert.deepEqual(S.decide(mixed, cur, 'save', { necessary: false, marketing: false }, false),
    { necessary: true, functional: true, analytics: false, marketing: false, chat: true });
});

test('decide: accept all does not switch opt_out on under GPC, an explicit switch does', () => {
  const cur = S.currentCategories(mixed, null, true);
  assert.equal(S.decide(mixed, cur, 'accept', null, true).marketing, false);
  assert.equal(S.decide(mixed, cur, 'accept', null, true).analytics, true);
  assert.equal(S.decide(mixed, cur, 'save', { marketing: true }, true).marketing, true);
});

test('eventAction: acknowledge, opt_in, opt_out, partial', () => {
  const notice = [cat('n', 'exempt'), cat('f', 'notice')];
  assert.equal(S.eventAction(notice, { n: true, f: true }), 'acknowledge');
  assert.equal(S.eventAction(mixed, { analytics: true, marketing: true }), 'opt_in');
  assert.equal(S.eventAction(mixed, { analytics: false, marketing: false, functional: true }), 'opt_out');
  assert.equal(S.eventAction(mixed, { analytics: true, marketing: false }), 'partial');
});

test('decisionValid: age against the expiry', () => {
  const rec = S.record('id', 1000, 365, 1, { analytics: true, marketing: false, chat: true, functional: true });
  assert.equal(S.decisionValid(rec, mixed, 1000 + 364 * DAY, 365), true);
  assert.equal(S.decisionValid(rec, mixed, 1000 + 365 * DAY, 365), false);
  assert.equal(S.decisionValid(rec, mixed, 1000 + 31 * DAY, 30), false);
  assert.equal(S.decisionValid(rec, mixed, 999, 365), false, 'a decision from the future');
  assert.equal(S.decisionValid(null, mixed, 0, 365), false);
});

test('decisionValid: a new non-exempt category asks again, a new exempt one does not', () => {
  const rec = S.record('id', 0, 365, 1, { analytics: true, marketing: false, chat: true, functional: true });
  assert.equal(S.decisionValid(rec, [...mixed, cat('video', 'opt_in')], 1, 365), false);
  assert.equal(S.decisionValid(rec, [...mixed, cat('security', 'exempt')], 1, 365), true);
  assert.equal(S.decisionValid(rec, null, 1, 365), true, 'without categories only the age counts');
});

test('expiryDays and gpcApplies read consentRules', () => {
  assert.equal(S.expiryDays({ consentRules: { expiryDays: 30 } }), 30);
  assert.equal(S.expiryDays({ consentRules: { expiryDays: '30' } }), 365);
  assert.equal(S.expiryDays({}), 365);
  assert.equal(S.gpcApplies(true, {}), true);
  assert.equal(S.gpcApplies(true, { consentRules: { honorGpc: false } }), false);
  assert.equal(S.gpcApplies(undefined, {}), false);
});

test('withdraws: only an allowed category turned off', () => {
  assert.equal(S.withdraws({ a: true, b: false }, { a: false, b: false }), true);
  assert.equal(S.withdraws({ a: false }, { a: true }), false);
});

test('parseRecord accepts only the stored form', () => {
  const rec = S.record('x', 5, 10, 2, { a: true });
  assert.deepEqual(S.parseRecord(JSON.stringify(rec)), rec);
  for (const bad of ['', '{', 'null', '{"v":2,"id":"x","ts":1,"days":1,"cats":{}}',
    '{"v":1,"id":"x","ts":1,"days":0,"cats":{}}', '{"v":1,"id":"x","ts":1,"days":1,"cats":{"a":1}}',
    '{"v":1,"id":5,"ts":1,"days":1,"cats":{}}']) {
    assert.equal(S.parseRecord(bad), null, bad);
  }
});

test('utcMonth and utcDay are UTC', () => {
  const t = Date.UTC(2026, 0, 31, 23, 30);
  assert.equal(S.utcMonth(t), '2026-01');
  assert.equal(S.utcDay(t), '2026-01-31');
});

test('hostMatches: equal, subdomain, leading *. ignored, no suffix tricks', () => {
  assert.ok(S.hostMatches('google-analytics.com', 'google-analytics.com'));
  assert.ok(S.hostMatches('www.Google-Analytics.com', 'google-analytics.com'));
  assert.ok(S.hostMatches('a.b.example.com', '*.example.com'));
  assert.ok(S.hostMatches('example.com', '*.example.com'));
  assert.ok(!S.hostMatches('evilexample.com', 'example.com'));
  assert.ok(!S.hostMatches('example.com.evil.net', 'example.com'));
  assert.ok(!S.hostMatches('example.com', '*.'));
  assert.ok(!S.hostMatches('', 'x'));
  assert.equal(S.ruleFor([{ pattern: 'a.com', category: 'x' }, { pattern: 'b.a.com', category: 'y' }], 'b.a.com').category, 'x');
  assert.equal(S.ruleFor(null, 'a.com'), null);
});
