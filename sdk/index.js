// index.js: consent.js's entry point.  Reads its own script tag, applies a
// stored decision at once, fetches the site's configuration, shows the
// banner when a decision is needed, records impressions and decisions, and
// exposes window.Consent (SDK.md 8).  Each step lives in the module named
// for it.

import * as S from './state.js';
import * as store from './store.js';
import { fetchConfig } from './config.js';
import { post, pageUrl } from './record.js';
import { el, trapFocus } from './dom.js';
import { buildBanner } from './banner.js';
import { buildPrefs } from './dialog.js';
import * as hold from './hold.js';
import { gcmMapping, gcmDefault, gcmUpdate } from './signals.js';
import { report, syncId } from './report.js';
import css from './style.css';

/* global SDK_VERSION */
const VERSION = typeof SDK_VERSION === 'string' ? SDK_VERSION : 'dev';
const RTL = ['ar', 'fa', 'he', 'ur'];
const POSITIONS = ['bottom-full', 'top-full', 'bottom-left', 'bottom-right', 'center-modal'];
const MODELS = ['opt_in', 'opt_out', 'notice', 'notice_required', 'notice_only'];
const t0 = performance.now();

// --- the script tag (SDK.md 1) ---------------------------------------------
const tag = document.currentScript;
const attr = (n) => (tag && tag.getAttribute('data-' + n)) || '';
const src = new URL((tag && tag.src) || location.href, location.href);
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
  answer: null, cats: [], allowed: {}, stored: store.readDecision(), decided: false,
  gpc: false, disabled: false, error: null, ready: false, ever: {},
  bannerAt: 0, prefsOpened: false,
};
const listeners = { ready: [], change: [] };

// Before the configuration arrives, a stored decision still inside the
// expiry it was stored with applies with the categories it was made under.
const last = store.load('rules');
if (st.stored && last && Array.isArray(last.cats) &&
    S.decisionValid(st.stored, null, Date.now(), st.stored.days)) {
  st.cats = last.cats;
  st.decided = true;
  st.allowed = S.currentCategories(st.cats, st.stored, false);
}
remember();

// Holding starts now, before the parser reaches the scripts after this one.
// A returning visitor's last rules apply at once; on a first visit every
// third-party script waits for the configuration (SDK.md 5).
let gcm = st.decided ? gcmMapping(last.gcm) : null;
const isAllowed = (id) => st.allowed[id] === true;
hold.init({ pass: [location.hostname, new URL(opts.api).hostname],
  rules: st.decided && Array.isArray(last.rules) ? last.rules : null, allowed: isAllowed });
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
    st.disabled = !!(a && a.disabled);
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
    store.save('rules', {
      cats: st.cats.map((c) => ({ id: c.id, consentModel: c.consentModel })),
      rules: Array.isArray(a.scriptRules) ? a.scriptRules : [],
      gcm: cr.googleConsentMode ?? null,
    });
    hold.setRules(a.scriptRules);
    const updated = !!gcm;
    gcm = gcmMapping(cr.googleConsentMode);
    gcmDefault(gcm, isAllowed);
    if (valid && !updated) gcmUpdate(gcm, isAllowed);
    if (!valid && S.bannerKind(st.cats) !== 'none') whenBody(() => showBanner());
    else if (valid && store.load('month') !== S.utcMonth(Date.now())) {
      send('impression', { interaction: 'returning_visitor' });
    }
  }
  hold.release();
  st.ready = true;
  settle(state());
  emit('ready');
  if (!st.error) afterLoad(() => report(opts.api, opts.key, hold.scripts, syncId(location.hash)));
}

function afterLoad(fn) {
  if (document.readyState === 'complete') setTimeout(fn);
  else addEventListener('load', () => setTimeout(fn), { once: true });
}

// --- consent entries (SDK.md 6) ----------------------------------------------
function regionModel() {
  const a = st.answer;
  const r = (a.config.regions || []).find((x) => x && x.id === a.resolvedRegion);
  return r && MODELS.includes(r.consentModel) ? r.consentModel : undefined;
}

function position() {
  const p = st.answer && st.answer.config.appearance && st.answer.config.appearance.position;
  return POSITIONS.includes(p) ? p : 'bottom-full';
}

function send(type, extra) {
  const a = st.answer;
  const body = {
    site_key: opts.key, anon_id: store.anonId(st.stored), event_type: type,
    categories: { ...st.allowed }, config_version: a.version, region: a.resolvedRegion ?? undefined,
    regulation: a.resolvedRegion ?? undefined, consent_model: regionModel(),
    preferences_opened: st.prefsOpened, banner_position: position(),
    page_url: pageUrl().slice(0, 2000), sdk_version: VERSION,
    language: (navigator.language || '').slice(0, 35) || undefined,
    resolved_language: a.resolvedLanguage, ...extra,
  };
  if (st.bannerAt) body.banner_load_time_ms = Math.round(st.bannerAt - t0);
  store.save('month', S.utcMonth(Date.now()));
  return post(opts.api + '/functions/v1/consent', body);
}

// how: 'accept' | 'reject' | 'save'; interaction as SDK.md 6.
async function decide(how, interaction, choice) {
  await ready;
  if (!st.answer) throw new Error('consent: no configuration to decide on');
  const now = Date.now();
  const cats = S.decide(st.cats, st.allowed, how, choice, st.gpc);
  const rec = S.record(store.anonId(st.stored), now, S.expiryDays(st.answer.config),
    st.answer.version, cats);
  const type = st.stored ? 'update' : 'initial';
  store.writeDecision(rec, opts.cookieDomain);
  st.stored = rec;
  st.decided = true;
  st.allowed = S.currentCategories(st.cats, rec, st.gpc);
  const withdrawn = S.withdraws(st.ever, st.allowed);
  remember();
  const extra = { event_action: S.eventAction(st.cats, st.allowed), interaction };
  if (st.bannerAt) extra.time_to_action_ms = Math.round(performance.now() - st.bannerAt);
  closeAll();
  gcmUpdate(gcm, isAllowed);
  hold.release();
  emit('change');
  await send(type, extra);
  // SDK.md 5: code that already ran cannot be stopped; a reload can.
  if (withdrawn) location.reload();
  return state();
}

// --- the banner and the dialog (SDK.md 4) --------------------------------------
let root = null, bannerNode = null, prefsNode = null, untrap = null, opener = null;

function whenBody(fn) {
  if (document.body) fn();
  else document.addEventListener('DOMContentLoaded', fn, { once: true });
}

function mount() {
  if (root) return root;
  const host = el('div', { id: 'consent-host' });
  for (const [k, v] of [['position', 'fixed'], ['top', '0'], ['left', '0'], ['width', '0'],
    ['height', '0'], ['margin', '0'], ['padding', '0'], ['border', '0'], ['z-index', '2147483647']]) {
    host.style.setProperty(k, v, 'important');
  }
  root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [sheet];
  document.body.prepend(host);
  return root;
}

function view() {
  const a = st.answer, ap = a.config.appearance || {};
  const lang = String(a.resolvedLanguage || 'en');
  return {
    texts: a.resolvedContent, ui: a.resolvedUi, cats: st.cats, lang,
    // The server's resolvedDirection; an answer without it (a copy made
    // by an older server at data-config-url) by the language's own code.
    dir: /^(rtl|ltr)$/.test(a.resolvedDirection) ? a.resolvedDirection
      : RTL.includes(lang.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr',
    theme: ['light', 'dark', 'auto'].includes(ap.theme) ? ap.theme : 'light',
    position: position(), kind: S.bannerKind(st.cats),
    branding: a.showBranding === true ? opts.api + '/' : null,
  };
}

function untrapAll() { if (untrap) { untrap(); untrap = null; } }

function showBanner() {
  if (!st.answer || S.bannerKind(st.cats) === 'none') return;
  const r = mount();
  if (!bannerNode) {
    bannerNode = buildBanner(view(), {
      accept: (i) => decide('accept', i),
      reject: (i) => decide('reject', i),
      customize: (b) => showPreferences(b),
    });
    r.append(bannerNode);
  }
  bannerNode.hidden = false;
  if (!st.bannerAt) {
    st.bannerAt = performance.now();
    send('impression', {});
  }
  if (view().position === 'center-modal') {
    untrapAll();
    untrap = trapFocus(bannerNode, () => {});
    bannerNode.querySelector('button').focus();
  }
}

function showPreferences(from) {
  if (!st.answer) return;
  const r = mount();
  opener = from || (document.activeElement !== document.body ? document.activeElement : null);
  st.prefsOpened = true;
  if (prefsNode) prefsNode.remove();
  untrapAll();
  if (bannerNode) bannerNode.hidden = true;
  prefsNode = buildPrefs(view(), st.allowed, {
    save: (choice) => decide('save', 'save_preferences', choice),
    close: () => closePrefs(),
  });
  r.append(prefsNode);
  untrap = trapFocus(prefsNode, closePrefs);
  (prefsNode.querySelector('input:not([disabled])') || prefsNode.querySelector('button')).focus();
}

// Close the dialog without deciding: the banner comes back if a decision
// is still needed, and focus returns to what opened the dialog.
function closePrefs() {
  untrapAll();
  if (prefsNode) { prefsNode.remove(); prefsNode = null; }
  if (bannerNode && !st.decided) showBanner();
  if (opener && opener.isConnected) opener.focus();
  opener = null;
}

function closeAll() {
  untrapAll();
  if (prefsNode) { prefsNode.remove(); prefsNode = null; }
  if (bannerNode) bannerNode.hidden = true;
  if (opener && opener.isConnected && !(root && root.contains(opener))) opener.focus();
  opener = null;
}

document.addEventListener('click', (ev) => {
  const t = ev.target.closest && ev.target.closest('[data-consent-open]');
  if (!t) return;
  ev.preventDefault();
  ready.then(() => showPreferences(t));
});

// --- window.Consent (SDK.md 8) -------------------------------------------------
window.Consent = {
  ready,
  get: state,
  allowed: (id) => st.allowed[id] === true,
  acceptAll: () => decide('accept', 'api'),
  rejectAll: () => decide('reject', 'api'),
  save: (choice) => decide('save', 'api', choice || {}),
  showBanner: () => { ready.then(() => whenBody(showBanner)); },
  showPreferences: () => { ready.then(() => whenBody(() => showPreferences())); },
  on(kind, fn) {
    if (!listeners[kind] || typeof fn !== 'function') return;
    listeners[kind].push(fn);
    if (kind === 'ready' && st.ready) fn(state());
  },
};

start();
