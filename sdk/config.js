// config.js: the site's resolved configuration (SDK.md 2): data-config-url
// first, then the config endpoint; no credentials.  Resolves to
// {answer} (a config or the disabled body) or {error}, never rejects.

async function get(url) {
  let res;
  try {
    res = await fetch(url, { credentials: 'omit', cache: 'no-store' });
  } catch {
    return { error: 'network' };
  }
  let body = null;
  try { body = await res.json(); } catch { /* not JSON */ }
  if (res.status !== 200) {
    const msg = body?.error;
    return { error: typeof msg === 'string' && msg ? msg.slice(0, 100) : 'http ' + res.status };
  }
  return body?.disabled === true || (typeof body?.config === 'object' && Array.isArray(body.sdkCategories))
    ? { answer: body } : { error: 'invalid answer' };
}

// opts: {api, key, configUrl, lang, region}
export async function fetchConfig(opts) {
  if (opts.configUrl) {
    const first = await get(opts.configUrl);
    if (first.answer?.config) return first;
  }
  const q = new URLSearchParams({ site_key: opts.key });
  if (opts.lang) q.set('lang', opts.lang);
  if (opts.region) q.set('region', opts.region);
  return get(opts.api + '/functions/v1/config?' + q);
}
