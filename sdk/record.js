// record.js: consent entries (SDK.md 6) sent to POST /functions/v1/consent.
// A request that fails (network error or 5xx) is retried once, a 4xx never;
// nothing waits on them but the promise the caller may keep.

let unloading = false;
if (typeof addEventListener === 'function') addEventListener('pagehide', () => { unloading = true; });

// POST body (an object) as JSON.  text/plain keeps it a simple request
// (no CORS preflight); the endpoints parse JSON whatever the type.
export async function post(url, body) {
  const data = JSON.stringify(body);
  for (let attempt = 0; attempt < 2; attempt++) {
    if (unloading && navigator.sendBeacon) {
      if (navigator.sendBeacon(url, new Blob([data], { type: 'text/plain' }))) return true;
    } else {
      try {
        const res = await fetch(url, {
          method: 'POST', body: data, keepalive: true, credentials: 'omit',
          headers: { 'Content-Type': 'text/plain' },
        });
        if (res.status < 500) return res.ok;
      } catch { /* network error: retried once */ }
    }
  }
  return false;
}

// The page's address as the log keeps it: origin and path, never the query
// or the fragment.
export const pageUrl = () => location.origin + location.pathname;
