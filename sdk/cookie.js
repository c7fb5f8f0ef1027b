// cookie.js: the stored decision in a first-party cookie (so that the site's
// server can read it too), and the SDK's few other keys in localStorage.
// Every access is guarded: a browser that refuses storage gets a banner on
// each page, never an exception.

import { parseRecord, DAY_MS } from './state.js';

export const COOKIE = 'consent_choice';
const PREFIX = 'consent.';

// The stored decision, parsed, or null: of two cookies of the name (the
// site's domain and a parent's), the last (the greedy prefix skips to it).
export function readDecision() {
  try {
    const m = /^(?:.*;)?\s*consent_choice\s*=([^;]*)/.exec(document.cookie);
    return m && parseRecord(decodeURIComponent(m[1].trim()));
  } catch { return null; }
}

// Store a decision record until rec.ts + rec.days days (its own time, not
// the write's), widened to `domain` when given.  Written again on each page
// view while valid: Safari caps a cookie written by script at 7 days.
export function writeDecision(rec, domain) {
  let c = COOKIE + '=' + encodeURIComponent(JSON.stringify(rec)) +
    '; path=/; SameSite=Lax; max-age=' + Math.floor((rec.ts + rec.days * DAY_MS - Date.now()) / 1000);
  if (domain) c += '; domain=' + domain;
  if (location.protocol === 'https:') c += '; Secure';
  try { document.cookie = c; } catch { /* cookies refused */ }
}

// localStorage, JSON-encoded, under the 'consent.' prefix.
export function load(key) {
  try {
    const v = localStorage.getItem(PREFIX + key);
    return JSON.parse(v);
  } catch { return null; }
}

export function save(key, value) {
  try { localStorage.setItem(PREFIX + key, JSON.stringify(value)); } catch { /* full or refused */ }
}

// A random UUID v4 (RFC 9562) from getRandomValues: randomUUID() exists
// only in secure contexts, and sites on plain http need an id too.
function uuid4() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  return [...b].map((x) => (x | 256).toString(16).slice(1)).join('')
    .replace(/(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}

// The browser's anonymous id (a random UUID made once), kept with the
// decision and in localStorage for the entries sent before one exists.
export function anonId(stored) {
  let id = stored?.id || load('id');
  if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) id = uuid4();
  save('id', id);
  return id;
}
