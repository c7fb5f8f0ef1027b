// state.js: categories and consent models, the stored decision and its
// validity (SDK.md 3).  Pure functions over plain objects: no DOM, no
// storage, no clock of their own, so that node:test can check them.

const NOTICE = ['notice', 'notice_only', 'notice_required'];
const SWITCHABLE = ['opt_in', 'opt_out'];

export const DAY_MS = 86400000;
export const DEFAULT_EXPIRY_DAYS = 365;

export const isNotice = (model) => NOTICE.includes(model);
export const isSwitchable = (model) => SWITCHABLE.includes(model);

// The kind of banner a category list calls for: 'none' when every category
// is exempt, 'notice' when every non-exempt one has a notice model (one
// acknowledging button), else 'choice' (accept, reject, customise).
export function bannerKind(cats) {
  const open = cats.filter((c) => c.consentModel !== 'exempt');
  if (open.length === 0) return 'none';
  return open.every((c) => isNotice(c.consentModel)) ? 'notice' : 'choice';
}

// Whether a category is allowed before any decision, per SDK.md 3; gpc is
// true when Global Privacy Control applies (SDK.md 7).
// (opt_in, notice_required and anything unknown: false).
export const allowedBefore = (model, gpc) =>
  ['exempt', 'notice', 'notice_only'].includes(model) || (model === 'opt_out' && !gpc);

// The expiry in days a config asks for: consentRules.expiryDays when it is
// a positive integer, else 365.
export function expiryDays(config) {
  const d = config?.consentRules?.expiryDays;
  return Number.isInteger(d) && d > 0 ? d : DEFAULT_EXPIRY_DAYS;
}

// Whether GPC applies: the browser sends it and the config does not turn
// honouring it off (SDK.md 7).
export function gpcApplies(signal, config) {
  return signal === true && config?.consentRules?.honorGpc !== false;
}

// A stored decision is valid while younger than `days` (the current
// config's expiry, or the one it was stored with when there is no config)
// and while it names every non-exempt category of `cats`.  `cats` null
// means the categories are unknown (no config): only the age counts.
export function decisionValid(stored, cats, now, days) {
  const age = now - stored?.ts;
  return typeof stored?.ts === 'number' && !!stored.cats && age >= 0 && age < days * DAY_MS &&
    (!cats || cats.every((c) => c.consentModel === 'exempt' || typeof stored.cats[c.id] === 'boolean'));
}

// The allowed state of every category: from a valid decision where there is
// one (`stored` null otherwise), else the models' defaults.  Exempt and
// notice categories follow their model, not the visitor's switches
// (notice_required ones once the banner has been answered).
export function currentCategories(cats, stored, gpc) {
  const out = {};
  for (const c of cats) {
    const m = c.consentModel, s = stored?.cats[c.id];
    out[c.id] = allowedBefore(m, true) || (m === 'notice_required' ? !!stored
      : typeof s === 'boolean' ? s : allowedBefore(m, gpc));
  }
  return out;
}

// A decision: `how` is 'accept' (accept all or acknowledge), 'reject', or
// 'save' with `choice` ({id: boolean}, ids not named keep `current`).
// Accept all does not switch on opt_out categories while GPC applies;
// only a switch of the visitor's own (save) does.  Returns the new map.
export function decide(cats, current, how, choice, gpc) {
  const out = {};
  for (const c of cats) {
    const m = c.consentModel;
    if (!isSwitchable(m)) { out[c.id] = true; continue; }
    if (how === 'accept') out[c.id] = (m === 'opt_out' && gpc) ? !!current[c.id] : true;
    else if (how === 'reject') out[c.id] = false;
    else out[c.id] = choice && typeof choice[c.id] === 'boolean' ? choice[c.id] : !!current[c.id];
  }
  return out;
}

// event_action of a decision (SDK.md 3, 6): 'acknowledge' for a notice
// banner, else by the switchable categories: all on opt_in, all off
// opt_out, partial otherwise.
export function eventAction(cats, allowed) {
  if (bannerKind(cats) === 'notice') return 'acknowledge';
  const sw = cats.filter((c) => isSwitchable(c.consentModel));
  const on = sw.filter((c) => allowed[c.id]).length;
  if (on === sw.length) return 'opt_in';
  return on === 0 ? 'opt_out' : 'partial';
}

// Whether moving from `before` to `after` takes back a category that was
// allowed (SDK.md 5: the page is then reloaded).
export function withdraws(before, after) {
  return Object.keys(before).some((id) => before[id] && after[id] === false);
}

// The stored form of a decision (the cookie's JSON, docs/sdk.md "The stored decision").
export function record(id, now, days, version, allowed) {
  return { v: 1, id, ts: now, days, ver: version, cats: allowed };
}

// The stored form back, or null when it is not one: a version 1 object with
// a string id, a numeric time, days and a map of booleans.
export function parseRecord(text) {
  let o;
  try { o = JSON.parse(text); } catch { return null; }
  return o && o.v === 1 && typeof o.id === 'string' && typeof o.ts === 'number' && o.days > 0 &&
    Number.isInteger(o.days) && o.cats && typeof o.cats === 'object' &&
    Object.values(o.cats).every((b) => typeof b === 'boolean') ? o : null;
}

// The UTC calendar month of a time, 'YYYY-MM', and the UTC day 'YYYY-MM-DD'.
export const utcMonth = (ms) => new Date(ms).toISOString().slice(0, 7);
export const utcDay = (ms) => new Date(ms).toISOString().slice(0, 10);

// Whether a host matches a rule pattern (SDK.md 5): equal to the pattern or
// ending with '.' + pattern; a leading '*.' of the pattern is ignored.
export function hostMatches(host, pattern) {
  const p = typeof pattern === 'string' && pattern.toLowerCase().replace(/^\*\./, ''), h = host?.toLowerCase();
  return !!p && !!h && (h === p || h.endsWith('.' + p));
}

// The first rule of `rules` that matches `host`, or null.
export function ruleFor(rules, host) {
  for (const r of rules || []) if (r && hostMatches(host, r.pattern)) return r;
  return null;
}
