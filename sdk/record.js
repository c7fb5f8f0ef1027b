// record.js: consent entries (SDK.md 6) sent to POST /functions/v1/consent.
// A request that fails (network error or 5xx) is retried once, a 4xx never;
// nothing waits on them but the promise the caller may keep.

let unloading = false;
if (typeof addEventListener === 'function') addEventListener('pagehide', () => { unloading = true; });

// POST body (an object) as JSON.  text/plain keeps it a simple request
// (no CORS preflight); the endpoints parse JSON whatever the type.  Entries
// are sent one after another, so that the log holds them in the order the
// visitor caused them (an impression before the decision that follows it);
// once the page is hiding, sendBeacon sends at once.
let queue = Promise.resolve();
export function post(url, body) {
  const data = JSON.stringify(body);
  if (unloading && navigator.sendBeacon) return send(url, data);
  const p = queue.then(() => send(url, data));
  queue = p.catch(() => {});
  return p;
}

async function send(url, data) {
  for (let attempt = 0; attempt < 2; attempt++) {
    // A string is sent as text/plain;charset=UTF-8: a simple request too.
    if (unloading && navigator.sendBeacon) return navigator.sendBeacon(url, data);
    try {
      const res = await fetch(url, {
        method: 'POST', body: data, keepalive: true, credentials: 'omit',
        headers: { 'Content-Type': 'text/plain' },
      });
      if (res.status < 500) return res.ok;
    } catch {
      // A keepalive request outlives its page: failing once the page is
      // hiding means the page went away, not the request, which may well
      // have been stored already.  Only a network error retries.
      if (unloading) return false;
    }
  }
  return false;
}

// The page's address as the log keeps it: origin and path, never the query
// or the fragment.
export const pageUrl = () => location.origin + location.pathname;
