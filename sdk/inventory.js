// inventory.js: the scripts inventory (SDK.md 9): the third-party script hosts
// seen on the page, at most once per page path per UTC day per browser, or
// at once with ?sync_id= when the page was opened with #consent-sync=UUID.

import { post, pageUrl } from './record.js';
import { load, save } from './cookie.js';
import { utcDay } from './state.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The sync id of a #consent-sync=UUID fragment, or null.
export function syncId(hash) {
  const m = /(?:^#|&)consent-sync=([^&]*)/.exec(hash || '');
  return m && UUID.test(m[1]) ? m[1].toLowerCase() : null;
}

// Send the inventory.  scan() gives [{domain, src, category (a string or
// null), blocked (a boolean)}] (hold.js scripts()).
export function sendInventory(api, key, scan, sync) {
  const path = location.pathname.slice(0, 300);
  const today = utcDay(Date.now());
  const days = load('reported') || {};
  if (!sync && days[path] === today) return Promise.resolve(false);
  const body = { site_key: key, page_url: pageUrl().slice(0, 500),
    timestamp: Math.floor(Date.now() / 1000), scripts: [] };
  try {
    body.scripts = scan().slice(0, 100).map((s) => ({
      ...s, domain: s.domain.slice(0, 500), src: String(s.src || '').slice(0, 2000),
    }));
  } catch (e) {
    body.error = String(e?.message || e).slice(0, 500) || 'scan failed';
  }
  if (!sync) {
    // Keep only today's paths, so the record stays small.
    save('reported', { ...Object.fromEntries(Object.entries(days).filter(([, d]) => d === today)), [path]: today });
  }
  const q = sync ? '?sync_id=' + sync : '';
  return post(api + '/functions/v1/scripts' + q, body);
}
