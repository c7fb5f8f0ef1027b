// index.js: consent.js's entry point.  Reads its own script tag, applies a
// stored decision at once, fetches the site's configuration, shows the
// banner when a decision is needed, records impressions and decisions, and
// exposes window.Consent (SDK.md 8).  Each step lives in the module named
// for it.

import * as S from './state.js';
import * as cookie from './cookie.js';
import { fetchConfig } from './config.js';
import { post, pageUrl } from './record.js';
import * as view from './view.js';
import { entryBody } from './entry.js';
import * as hold from './hold.js';
import { gcmMapping, gcmDefault, gcmUpdate, heldRules } from './signals.js';
import { sendInventory, syncId } from './inventory.js';

/* global SDK_VERSION */
const VERSION = typeof SDK_VERSION === 'string' ? SDK_VERSION : 'dev';
const t0 = performance.now();

// --- the script tag (SDK.md 1) ---------------------------------------------
const tag = document.currentScript;
const attr = (n) => tag?.getAttribute('data-' + n) || '';
const src = new URL(tag?.src || location.href, location.href);
const opts = {
  key: attr('site-key'),
  api: (attr('api') || src.origin).replace(/\/+$/, ''),
  configUrl: attr('config-url'),
  lang: attr('lang'),
  region: attr('region'),
  cookieDomain: attr('cookie-domain'),
};

// --- state ------------------------------------------------------------------
// answer: the config answer; cats: sdkCategories; allowed: {id: boolean};
// stored: the decision record in the cookie (valid or not); decided: a valid
// one applies; ever: categories allowed at any time in this page view.
const st = {
  answer: null, cats: [], allowed: {}, stored: cookie.readDecision(), decided: false,
  gpc: false, disabled: false, error: null, ready: false, ever: {},
  bannerAt: 0, prefsOpened: false,
};
const listeners = { ready: [], change: [] };
view.init(st, { decide, impression: () => send('impression', {}) }, opts.api);

// Before the configuration arrives, a stored decision still inside the
// expiry it was stored with applies with the categories it was made under.
// It is written again, to last until its own expiry (cookie.writeDecision).
const last = cookie.load('rules');
if (st.stored && S.decisionValid(st.stored, null, Date.now(), st.stored.days)) {
  cookie.writeDecision(st.stored, opts.cookieDomain);
  if (last && Array.isArray(last.cats)) {
    st.cats = last.cats;
    st.decided = true;
    st.allowed = S.currentCategories(st.cats, st.stored, false);
  }
}
remember();

// Holding starts now, before the parser reaches the scripts after this one.
// A returning visitor's last rules apply at once; on a first visit every
// third-party script waits for the configuration (SDK.md 5).
let gcm = st.decided ? gcmMapping(last.gcm) : null;
const isAllowed = (id) => st.allowed[id] === true;
hold.init({ pass: [location.hostname, new URL(opts.api).hostname],
  rules: st.decided && Array.isArray(last.rules) ? last.rules : null, allowed: isAllowed,
  show: view.showEmbed });
if (gcm) gcmUpdate(gcm, isAllowed);
document.addEventListener('DOMContentLoaded', () => hold.release());

function remember() {
  for (const [id, on] of Object.entries(st.allowed)) if (on) st.ever[id] = true;
}

function state() {
  const a = st.answer || {};
  return {
    decided: st.decided, categories: { ...st.allowed }, region: a.resolvedRegion ?? null,
    language: a.resolvedLanguage ?? null, version: a.version ?? null, gpc: st.gpc,
    disabled: st.disabled, error: st.error,
  };
}

function emit(kind) {
  const s = state();
  for (const fn of listeners[kind]) { try { fn(s); } catch (e) { setTimeout(() => { throw e; }); } }
  document.dispatchEvent(new CustomEvent('consent:' + kind, { detail: s }));
}

// --- configuration (SDK.md 2) -------------------------------------------------
let settle;
const ready = new Promise((r) => { settle = r; });

async function start() {
  const got = opts.key ? await fetchConfig(opts) : { error: 'data-site-key is required' };
  const a = got.answer;
  if (!a || a.disabled) {
    // No configuration: a stored decision in its own expiry keeps applying
    // (set above); without one nothing optional is allowed, not even exempt.
    st.disabled = !!a?.disabled;
    st.error = st.disabled ? null : got.error;
    if (!st.decided) { st.allowed = {}; st.cats = []; }
  } else {
    st.answer = a;
    st.cats = a.sdkCategories.filter((c) => c && typeof c.id === 'string');
    st.gpc = S.gpcApplies(navigator.globalPrivacyControl, a.config);
    const valid = S.decisionValid(st.stored, st.cats, Date.now(), S.expiryDays(a.config));
    st.decided = valid;
    st.allowed = S.currentCategories(st.cats, valid ? st.stored : null, st.gpc);
    remember();
    const cr = a.config.consentRules || {};
    const rules = heldRules(a.scriptRules, cr);
    cookie.save('rules', {
      cats: st.cats.map((c) => ({ id: c.id, consentModel: c.consentModel })),
      rules, gcm: cr.googleConsentMode ?? null,
    });
    const updated = !!gcm;
    gcm = gcmMapping(cr.googleConsentMode);
    gcmDefault(gcm, isAllowed);
    if (valid && !updated) gcmUpdate(gcm, isAllowed);
    // After the default (SDK.md 7): these rules may let Google's tags pass.
    hold.setRules(rules);
    if (!valid && S.bannerKind(st.cats) !== 'none') view.whenBody(() => view.showBanner());
    else if (valid && cookie.load('month') !== S.utcMonth(Date.now())) {
      send('impression', { interaction: 'returning_visitor' });
    }
  }
  hold.release();
  st.ready = true;
  settle(state());
  emit('ready');
  if (!st.error) afterLoad(() => sendInventory(opts.api, opts.key, hold.scripts, syncId(location.hash)));
}

function afterLoad(fn) {
  if (document.readyState === 'complete') setTimeout(fn);
  else addEventListener('load', () => setTimeout(fn), { once: true });
}

// --- consent entries (SDK.md 6) ----------------------------------------------
function send(type, extra) {
  cookie.save('month', S.utcMonth(Date.now()));
  return post(opts.api + '/functions/v1/consent', entryBody(st, {
    key: opts.key, anonId: cookie.anonId(st.stored), position: view.position(st.answer),
    page: pageUrl(), language: navigator.language, version: VERSION, t0,
  }, type, extra));
}

// how: 'accept' | 'reject' | 'save'; interaction as SDK.md 6.
async function decide(how, interaction, choice) {
  await ready;
  if (!st.answer) throw new Error('consent: no configuration to decide on');
  const cats = S.decide(st.cats, st.allowed, how, choice, st.gpc);
  const rec = S.record(cookie.anonId(st.stored), Date.now(), S.expiryDays(st.answer.config),
    st.answer.version, cats);
  const type = st.stored ? 'update' : 'initial';
  cookie.writeDecision(rec, opts.cookieDomain);
  st.stored = rec;
  st.decided = true;
  st.allowed = S.currentCategories(st.cats, rec, st.gpc);
  const withdrawn = S.withdraws(st.ever, st.allowed);
  remember();
  const extra = { event_action: S.eventAction(st.cats, st.allowed), interaction };
  if (st.bannerAt) extra.time_to_action_ms = Math.round(performance.now() - st.bannerAt);
  view.closeAll();
  gcmUpdate(gcm, isAllowed);
  hold.release();
  emit('change');
  await send(type, extra);
  // SDK.md 5: code that already ran cannot be stopped; a reload can.
  if (withdrawn) location.reload();
  return state();
}

// --- the layers (SDK.md 4): view.js; a data-consent-open click opens the dialog
document.addEventListener('click', (ev) => {
  const t = ev.target.closest?.('[data-consent-open]');
  if (!t) return;
  ev.preventDefault();
  ready.then(() => view.showPreferences(t));
});

// --- window.Consent (SDK.md 8) -------------------------------------------------
window.Consent = {
  ready,
  get: state,
  allowed: isAllowed,
  acceptAll: () => decide('accept', 'api'),
  rejectAll: () => decide('reject', 'api'),
  save: (choice) => decide('save', 'api', choice || {}),
  showBanner: () => { ready.then(() => view.whenBody(view.showBanner)); },
  showPreferences: () => { ready.then(() => view.whenBody(() => view.showPreferences())); },
  on(kind, fn) {
    if (!listeners[kind] || typeof fn !== 'function') return;
    listeners[kind].push(fn);
    if (kind === 'ready' && st.ready) fn(state());
  },
};

start();
