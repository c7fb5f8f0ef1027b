// signals.js: Google Consent Mode v2 (SDK.md 7).  GPC itself is decided in
// state.js (gpcApplies) and sent by the browser as Sec-GPC.

import { hostMatches } from './state.js';

const DEFAULT_MAP = {
  analytics_storage: 'analytics',
  ad_storage: 'marketing',
  ad_user_data: 'marketing',
  ad_personalization: 'marketing',
  functionality_storage: 'functional',
  personalization_storage: 'functional',
};

// The mapping a config's consentRules.googleConsentMode asks for: the
// default one for true, its own for an object (which replaces the default),
// null when Consent Mode is off.
export function gcmMapping(setting) {
  if (setting === true) return DEFAULT_MAP;
  if (setting && typeof setting === 'object' && !Array.isArray(setting)) {
    const m = {};
    for (const [type, cat] of Object.entries(setting)) {
      if (type !== 'security_storage' && typeof cat === 'string') m[type] = cat;
    }
    return m;
  }
  return null;
}

// The Consent Mode values: each type granted exactly when its category is
// allowed; security_storage always granted.
export function gcmValues(map, allowed) {
  const v = {};
  for (const [type, cat] of Object.entries(map)) v[type] = allowed(cat) ? 'granted' : 'denied';
  v.security_storage = 'granted';
  return v;
}

// The hosts of Google's tags: gtag.js and the Tag Manager container, and
// where Google Analytics sends.
const GOOGLE_TAG_HOSTS = ['googletagmanager.com', 'google-analytics.com', 'analytics.google.com'];

// The rules to hold by (docs/sdk.md, "Google's tags"): the answer's
// scriptRules, without those of Google's tag hosts and hosts under them
// when consentRules.googleConsentModeAdvanced is true (the tags then load
// with the denied default).  The answer's array itself without the setting.
export function heldRules(rules, consentRules) {
  if (!Array.isArray(rules)) return [];
  if (consentRules.googleConsentModeAdvanced !== true) return rules;
  return rules.filter((r) => !GOOGLE_TAG_HOSTS.some((h) => hostMatches(String(r?.pattern).replace(/^\*\./, ''), h)));
}

// A consent command, as Google's snippet's gtag() would push it.  While no
// Google tag has read the queue (gtag.js and gtm.js replace its push), the
// command goes ahead of the commands waiting in it (the page's own
// gtag('config'), GTM's gtm.js event), after the consent commands there:
// Google's tags apply commands in queue order, and a config read before
// the default measures as if everything were granted.
function gtag(...args) {
  const dl = window.dataLayer ||= [];
  if (typeof window.gtag !== 'function') {
    // Google's own snippet: gtag pushes its arguments object.
    window.gtag = function () { window.dataLayer.push(arguments); }; // eslint-disable-line prefer-rest-params
  }
  // An array whose push no Google tag replaced yet.  findIndex's -1 (only
  // consent commands queued) is 2^32 - 1 unsigned: splice starts at the end.
  if (dl.push === [].push) {
    dl.splice(dl.findIndex((e) => e?.[0] !== 'consent') >>> 0, 0, (function () { return arguments; })(...args)); // eslint-disable-line prefer-rest-params
  } else window.gtag(...args);
}

let sentDefault = false;

// The default command, once, before any held script is released.
export function gcmDefault(map, allowed) {
  if (!map || sentDefault) return;
  sentDefault = true;
  gtag('consent', 'default', { ...gcmValues(map, allowed), wait_for_update: 500 });
}

// The update command, for a stored decision at load and after every decision.
export function gcmUpdate(map, allowed) {
  if (!map) return;
  gcmDefault(map, allowed);
  gtag('consent', 'update', gcmValues(map, allowed));
}
