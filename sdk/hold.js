// hold.js: scripts, iframes, images and requests held until their category
// is allowed (SDK.md 5).
//
// - Scripts in the HTML after consent.js: a MutationObserver sees each one
//   when the parser inserts it, before the parser prepares it (the HTML
//   standard's microtask checkpoint at </script>), and turns its type into
//   one no browser runs.  Nothing is fetched by the parser then; Chromium's
//   preload scanner may have fetched it already (docs/sdk.md, "What is held,
//   and what is stopped before its request").
// - Scripts added by code: the `src` setter, setAttribute('src') and every
//   insertion method (appendChild, insertBefore, replaceChild, append,
//   prepend, before, after, replaceWith, insertAdjacentElement) check the
//   script before it is connected: a disconnected script fetches nothing.
// - Markup written by document.write and writeln: the start tags of the
//   scripts, iframes and images holding calls for (as for a script) are
//   rebuilt before the markup reaches the parser (write.js); the scripts
//   come back to checkScript marked WRITTEN_TYPE and are held like the
//   others, the iframes and images wait in release() like marked ones;
//   an embed's iframe is written as it is and goes behind its placeholder
//   before write() returns.
// - Requests made by code (fetch, XMLHttpRequest, sendBeacon, an image's
//   src) to a host a rule of a non-allowed category matches fail at once,
//   and are never replayed.
// - Marked by the site: <script type="text/plain" data-consent="CAT">,
//   <iframe|img data-consent="CAT" data-src="URL">.
// - Embeds: an iframe of a known embed host (EMBEDS) whose category is not
//   allowed, in the markup or added by code, is taken out of the page (a
//   detached iframe loads nothing; one the parser inserted may have sent
//   its first request) and a placeholder (view.js showEmbed) stands in its
//   place until the category is allowed; then the same iframe goes back
//   where the placeholder is, and loads.
//
// Held scripts are released once, in document order, each external one
// after the previous has loaded, so that a library and the code that uses
// it run in the order the page gave them.

import { ruleFor, hostMatches } from './state.js';
import { rewrite, isJs, WRITTEN_TYPE, HELD_MARK } from './write.js';

const BLOCKED_TYPE = 'javascript/blocked';
const held = [];            // scripts held, in the order they were seen
const origType = new WeakMap();
const done = new WeakSet(); // released or passed: never looked at again
const seen = new Map();     // host -> the src of its first script, for inventory.js
let rules = null;           // null: no rule known yet (a first visit)
let allowed = () => false;
let passHosts = [];
let observer = null;
let show = () => {};
const frames = [];          // held embeds, each detached
const stand = new WeakMap(); // held embed -> its placeholder
const setAttr = Element.prototype.setAttribute;

// The known embeds: a provider's name, the hosts of its players (with a
// path where the host serves more than embeds) and the category the
// tracker database (common/input/trackers.tsv) gives them.  A rule of the
// configuration for the host decides the category instead.
const EMBEDS = 'YouTube:youtube.com youtube-nocookie.com:functional;Vimeo:vimeo.com:functional;' +
  'Google Maps:google.com/maps:functional;Spotify:open.spotify.com:functional;' +
  'X:twitter.com x.com:marketing;Instagram:instagram.com:marketing;TikTok:tiktok.com:marketing';

// A URL of the page's, or null for anything not http(s).
function parse(url) {
  try {
    const u = new URL(url, document.baseURI);
    return /^https?:$/.test(u.protocol) ? u : null;
  } catch { return null; }
}
const hostOf = (url) => parse(url)?.hostname.toLowerCase();

// The embed an iframe of `url` shows: [provider, category], or null.
function embedOf(url) {
  const u = parse(url);
  for (const e of u ? EMBEDS.split(';') : []) {
    const [name, hosts, cat] = e.split(':');
    for (const [h, dir] of hosts.split(' ').map((p) => p.split('/'))) {
      if (hostMatches(u.hostname, h) && u.pathname.startsWith('/' + (dir || ''))) {
        const r = rules && ruleFor(rules, u.hostname);
        return [name, r ? r.category : cat];
      }
    }
  }
  return null;
}

// Whether a script from `url` is held now: by a rule of a category not
// allowed, or, before any rule is known, when its host is neither the
// page's nor the API's.  ruled: by a rule only (a request made by code).
function holds(url, ruled) {
  const host = hostOf(url), r = host && rules && ruleFor(rules, host);
  return r ? !allowed(r.category) : !ruled && !!host && !rules && !passHosts.includes(host);
}
const requestBlocked = (url) => holds(url, true);

// A third-party script host seen, with a script's src, for scripts().
function note(src) {
  const host = hostOf(src);
  if (host && !passHosts.includes(host) && !seen.has(host)) seen.set(host, String(src));
}

// Look at a script before it can run: hold it when its src calls for it.
// One that write.js rewrote is held already: it is recorded with the type
// it had.
function checkScript(s, url) {
  if (done.has(s) || s.type === BLOCKED_TYPE) return;
  const src = url ?? s.getAttribute('src');
  const type = s.getAttribute('type');
  const written = !!type?.startsWith(WRITTEN_TYPE);
  if (!src || !(written || isJs(type))) return;
  note(src);
  if (!written && !holds(src)) return;
  origType.set(s, written ? type.slice(WRITTEN_TYPE.length) || null : type);
  s.type = BLOCKED_TYPE;
  held.push(s);
}

// Look at a node and what it holds before it can run or load; returns
// what is to stand where it goes (a held embed's placeholder).
function checkTree(node) {
  if (!node?.nodeType) return node;
  const n = node.nodeName;
  if (n === 'SCRIPT') checkScript(node);
  else if (n === 'IMG') checkImage(node);
  else if (n === 'IFRAME') return checkFrame(node);
  if (node.querySelectorAll) for (const e of node.querySelectorAll('script[src],img[src],iframe[src]')) checkTree(e);
  return node;
}

// An iframe of `url` (its src, or the one it is being given): held when
// it is a known embed whose category is not allowed: out of the page, a
// placeholder of its size in its place.  Returns what stands for it.
function checkFrame(f, url = f.getAttribute('src')) {
  let ph = stand.get(f);
  const e = !ph && !done.has(f) && embedOf(url);
  if (!e || allowed(e[1])) return ph || f;
  ph = document.createElement('consent-embed');
  for (const [k, d] of [['width', 300], ['height', 150]]) {
    const v = f.getAttribute(k) || d;
    ph.style.setProperty(k, isNaN(v) ? v : v + 'px');
  }
  stand.set(f, ph);
  frames.push(f);
  if (f.parentNode) f.replaceWith(ph);
  show(ph, f, e);
  return ph;
}

// An <img> inserted by code with a src of a blocked host loses that src.
function checkImage(img) {
  const src = img.getAttribute('src');
  if (src && requestBlocked(src)) img.removeAttribute('src');
}

function patchSetter(proto, prop, check) {
  const d = Object.getOwnPropertyDescriptor(proto, prop);
  if (!d?.set) return;
  Object.defineProperty(proto, prop, {
    ...d,
    set(v) { if (check(this, v)) d.set.call(this, v); },
  });
}

// Mutation records: look at every node they add.
function changed(list) {
  for (const m of list) for (const n of m.addedNodes) checkTree(n);
}

// A src that code gives an element, looked at as its kind calls for;
// false when it is not to be set (an image's of a blocked host).
function checkSrc(e, v) {
  const n = e.nodeName;
  v = String(v);
  if (n === 'SCRIPT') checkScript(e, v);
  else if (n === 'IFRAME') checkFrame(e, v);
  return n !== 'IMG' || !requestBlocked(v);
}

function install() {
  for (const E of [HTMLScriptElement, HTMLImageElement, HTMLIFrameElement]) patchSetter(E.prototype, 'src', checkSrc);
  Element.prototype.setAttribute = function (name, value) {
    if (String(name).toLowerCase() === 'src' && !checkSrc(this, value)) return undefined;
    return setAttr.call(this, name, value);
  };
  const wrap = (proto, names) => {
    for (const n of names) {
      const f = proto[n];
      if (typeof f !== 'function') continue;
      proto[n] = function (...args) {
        return f.apply(this, args.map((a) => (a && typeof a === 'object' ? checkTree(a) : a)));
      };
    }
  };
  wrap(Node.prototype, ['appendChild', 'insertBefore', 'replaceChild']);
  // (A fragment's or the document's own append holds nothing that runs:
  // the fragment's scripts are looked at when it is inserted.)
  wrap(Element.prototype, ['append', 'prepend', 'before', 'after', 'replaceWith', 'insertAdjacentElement']);

  const f = window.fetch;
  window.fetch = function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    if (requestBlocked(url)) return Promise.reject(new TypeError('Failed to fetch'));
    return f.call(this, input, init);
  };
  const X = XMLHttpRequest.prototype, open = X.open, send = X.send;
  const xurl = new WeakMap();
  X.open = function (method, url) { xurl.set(this, String(url)); return open.apply(this, arguments); }; // eslint-disable-line prefer-rest-params
  X.send = function (body) {
    if (!requestBlocked(xurl.get(this))) return send.call(this, body);
    setTimeout(() => { for (const e of ['error', 'loadend']) this.dispatchEvent(new ProgressEvent(e)); });
    return undefined;
  };
  if (navigator.sendBeacon) {
    const b = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => (requestBlocked(String(url)) ? false : b(url, data));
  }

  for (const n of ['write', 'writeln']) {
    const f = Document.prototype[n];
    // Markup that needs no change is passed as given (a TrustedHTML stays
    // one); rewritten markup is a string, which a page enforcing Trusted
    // Types refuses: then nothing of it is written, nothing runs.
    // An embed's iframe is written as it is: it leaves the page for its
    // placeholder (checkFrame) before write() returns.
    Document.prototype[n] = function (...args) {
      const html = args.join('');
      const out = rewrite(html, (url, tag) => holds(url) && !(tag === 'iframe' && embedOf(url)));
      if (out === html) f.apply(this, args); else f.call(this, out);
      // What was written is in the document now: held before anything
      // can release it.
      changed(observer.takeRecords());
      return undefined;
    };
  }

  observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { childList: true, subtree: true });
}

// Start holding.  opts: {pass: hosts never held before the config arrives
// (the page's and the API's), rules: the stored rules or null,
// allowed: (category) => boolean, show(placeholder, iframe, [provider,
// category]): fills a held embed's placeholder once it can}.
export function init(opts) {
  passHosts = opts.pass.map((h) => h.toLowerCase());
  ({ rules, allowed, show } = opts);
  install();
}

// The configuration's rules have arrived.
export function setRules(r) { rules = Array.isArray(r) ? r : []; }

// Run a held script: the same element for one held by a rule (so that
// handlers the page set on it, like onload, still fire): its type back and
// its src set anew, which makes the browser prepare it again; a fresh
// element for one the site marked (its type says text/plain for good).
// Resolves when it has run (or failed to load).
function run(old, type) {
  return new Promise((resolve) => {
    const marked = old.hasAttribute('data-consent');
    const s = marked ? document.createElement('script') : old;
    if (marked) {
      for (const a of old.attributes) {
        if (!['type', 'data-consent', 'data-type'].includes(a.name)) setAttr.call(s, a.name, a.value);
      }
      s.text = old.text;
      done.add(s);
    }
    if (type) setAttr.call(s, 'type', type); else s.removeAttribute('type');
    const src = s.getAttribute('src');
    if (!old.isConnected) { resolve(); return; }
    if (src) {
      s.async = false;
      for (const e of ['load', 'error']) s.addEventListener(e, () => resolve(), { once: true });
    } else setTimeout(resolve);
    if (marked) old.replaceWith(s);
    else { s.removeAttribute('src'); setAttr.call(s, 'src', src); }
  });
}

let chain = Promise.resolve();

// Release what may now run: held scripts whose category is allowed (or,
// once the rules are known, that no rule of a non-allowed category holds),
// then the site's marked elements and the iframes and images write.js
// held, and held embeds, each back where its placeholder is (focus on the
// placeholder goes to it); the placeholders of the others are filled.
// Scripts run one after another in document order.
export function release() {
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i], ph = stand.get(f), e = embedOf(f.getAttribute('src'));
    if (e && !allowed(e[1])) { show(ph, f, e); continue; }
    frames.splice(i--, 1);
    stand.delete(f);
    done.add(f);
    const focus = ph.shadowRoot?.activeElement;
    ph.replaceWith(f);
    if (focus) f.focus();
  }
  const ready = [];
  for (let i = 0; i < held.length; i++) {
    const s = held[i];
    if (holds(s.getAttribute('src'))) continue;
    held.splice(i--, 1);
    ready.push([s, origType.get(s)]);
  }
  for (const e of document.querySelectorAll(`[data-consent],[${HELD_MARK}]`)) {
    const cat = e.getAttribute('data-consent');
    if (done.has(e) || (cat !== null ? !allowed(cat) : holds(e.getAttribute('data-src')))) continue;
    done.add(e);
    if (e.nodeName === 'SCRIPT') ready.push([e, e.getAttribute('data-type') || null]);
    else if (e.hasAttribute('data-src')) e.setAttribute('src', e.getAttribute('data-src'));
  }
  ready.sort(([a], [b]) => (a.compareDocumentPosition(b) & 4 ? -1 : 1 /* b follows a */));
  for (const [old, type] of ready) {
    done.add(old);
    chain = chain.then(() => run(old, type));
  }
}

// The third-party script hosts seen so far, for the scripts report: each
// with the category of the rule that matches it now (or null) and whether
// a script of it is still held.
export function scripts() {
  for (const s of document.scripts) if (s.getAttribute('src')) note(s.src);
  const still = new Set(held.map((s) => hostOf(s.getAttribute('src'))));
  // (note() keeps out the page's host and the API's.)
  return [...seen].map(([domain, src]) => {
    const rule = rules && ruleFor(rules, domain);
    return { domain, src, category: rule ? rule.category : null, blocked: still.has(domain) };
  });
}
