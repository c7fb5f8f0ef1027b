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
//   others, the iframes and images wait in release() like marked ones.
// - Requests made by code (fetch, XMLHttpRequest, sendBeacon, an image's
//   src) to a host a rule of a non-allowed category matches fail at once,
//   and are never replayed.
// - Marked by the site: <script type="text/plain" data-consent="CAT">,
//   <iframe|img data-consent="CAT" data-src="URL">.
//
// Held scripts are released once, in document order, each external one
// after the previous has loaded, so that a library and the code that uses
// it run in the order the page gave them.

import { ruleFor } from './state.js';
import { rewrite, isJs, WRITTEN_TYPE, HELD_MARK } from './write.js';

const BLOCKED_TYPE = 'javascript/blocked';
const held = [];            // scripts held, in the order they were seen
const origType = new WeakMap();
const done = new WeakSet(); // released or passed: never looked at again
const seen = new Map();     // host -> {src, category, blocked}, for inventory.js
let rules = null;           // null: no rule known yet (a first visit)
let allowed = () => false;
let passHosts = [];
let observer = null;
const setAttr = Element.prototype.setAttribute;

// The host of a URL of the page's or null for anything not http(s).
function hostOf(url) {
  try {
    const u = new URL(url, document.baseURI);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.toLowerCase() : null;
  } catch { return null; }
}

// What a script from `url` may do now: {hold, cat}.  Before any rule is
// known every host but the page's and the API's is held.
function scriptVerdict(url) {
  const host = hostOf(url);
  if (!host) return { hold: false, cat: null, host };
  const r = rules && ruleFor(rules, host);
  if (r) return { hold: !allowed(r.category), cat: r.category, host };
  return { hold: !rules && !passHosts.includes(host), cat: null, host };
}

// Whether a request by code to `url` is stopped: only by a known rule.
function requestBlocked(url) {
  const host = hostOf(url);
  const r = host && rules && ruleFor(rules, host);
  return !!r && !allowed(r.category);
}

function note(host, src, cat, blocked) {
  if (!host || passHosts.includes(host)) return;
  seen.set(host, { src, category: cat, blocked });
}

// Look at a script before it can run: hold it when its src calls for it.
// One that write.js rewrote is held already: it is recorded with the type
// it had.
function checkScript(s, url) {
  if (done.has(s) || s.type === BLOCKED_TYPE) return;
  const src = url === undefined ? s.getAttribute('src') : url;
  const type = s.getAttribute('type');
  const written = !!type && type.startsWith(WRITTEN_TYPE);
  if (!src || !(written || isJs(type))) return;
  const v = scriptVerdict(src);
  note(v.host, String(src), v.cat, v.hold || written);
  if (!v.hold && !written) return;
  origType.set(s, written ? type.slice(WRITTEN_TYPE.length) || null : type);
  s.type = BLOCKED_TYPE;
  held.push(s);
}

function checkTree(node) {
  if (!node || node.nodeType === undefined) return;
  if (node.nodeName === 'SCRIPT') checkScript(node);
  else if (node.nodeName === 'IMG') checkImage(node);
  if (node.querySelectorAll) {
    for (const s of node.querySelectorAll('script[src]')) checkScript(s);
    for (const i of node.querySelectorAll('img[src]')) checkImage(i);
  }
}

// An <img> inserted by code with a src of a blocked host loses that src.
function checkImage(img) {
  const src = img.getAttribute('src');
  if (src && requestBlocked(src)) img.removeAttribute('src');
}

function patchSetter(proto, prop, check) {
  const d = Object.getOwnPropertyDescriptor(proto, prop);
  if (!d || !d.set) return;
  Object.defineProperty(proto, prop, {
    ...d,
    set(v) { if (check(this, v)) d.set.call(this, v); },
  });
}

// Mutation records: look at every node they add.
function changed(list) {
  for (const m of list) for (const n of m.addedNodes) checkTree(n);
}

function install() {
  const scriptSrc = (s, v) => { checkScript(s, String(v)); return true; };
  const imgSrc = (_, v) => !requestBlocked(String(v));
  patchSetter(HTMLScriptElement.prototype, 'src', scriptSrc);
  patchSetter(HTMLImageElement.prototype, 'src', imgSrc);
  Element.prototype.setAttribute = function (name, value) {
    if (String(name).toLowerCase() === 'src') {
      if (this.nodeName === 'SCRIPT') scriptSrc(this, value);
      else if (this.nodeName === 'IMG' && !imgSrc(this, value)) return undefined;
    }
    return setAttr.call(this, name, value);
  };
  const wrap = (proto, names) => {
    for (const n of names) {
      const f = proto[n];
      if (typeof f !== 'function') continue;
      proto[n] = function (...args) {
        for (const a of args) if (a && typeof a === 'object') checkTree(a);
        return f.apply(this, args);
      };
    }
  };
  wrap(Node.prototype, ['appendChild', 'insertBefore', 'replaceChild']);
  wrap(Element.prototype, ['append', 'prepend', 'before', 'after', 'replaceWith', 'insertAdjacentElement']);
  wrap(Document.prototype, ['append', 'prepend']);
  wrap(DocumentFragment.prototype, ['append', 'prepend']);

  const f = window.fetch;
  window.fetch = function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    if (requestBlocked(url)) return Promise.reject(new TypeError('Failed to fetch'));
    return f.call(this, input, init);
  };
  const X = XMLHttpRequest.prototype, open = X.open, send = X.send;
  const xurl = new WeakMap();
  X.open = function (method, url, ...rest) { xurl.set(this, String(url)); return open.call(this, method, url, ...rest); };
  X.send = function (body) {
    if (!requestBlocked(xurl.get(this) || '')) return send.call(this, body);
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
    Document.prototype[n] = function (...args) {
      const html = args.join('');
      const out = rewrite(html, (url) => scriptVerdict(url).hold);
      if (out === html) return f.apply(this, args);
      f.call(this, out);
      // The written scripts are in the document now: held before anything
      // can release them.
      changed(observer.takeRecords());
      return undefined;
    };
  }

  observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { childList: true, subtree: true });
}

// Start holding.  opts: {pass: hosts never held before the config arrives
// (the page's and the API's), rules: the stored rules or null,
// allowed: (category) => boolean}.
export function init(opts) {
  passHosts = opts.pass.map((h) => h.toLowerCase());
  rules = opts.rules;
  allowed = opts.allowed;
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
      s.addEventListener('load', () => resolve(), { once: true });
      s.addEventListener('error', () => resolve(), { once: true });
    } else setTimeout(resolve);
    if (marked) old.replaceWith(s);
    else { s.removeAttribute('src'); setAttr.call(s, 'src', src); }
  });
}

let chain = Promise.resolve();

// Release what may now run: held scripts whose category is allowed (or,
// once the rules are known, that no rule of a non-allowed category holds),
// then the site's marked elements and the iframes and images write.js
// held.  Scripts run one after another in document order.
export function release() {
  const ready = [];
  for (let i = 0; i < held.length; i++) {
    const s = held[i];
    const v = scriptVerdict(s.getAttribute('src'));
    if (v.hold) continue;
    held.splice(i--, 1);
    note(v.host, s.getAttribute('src'), v.cat, false);
    ready.push([s, origType.get(s)]);
  }
  for (const e of document.querySelectorAll(`[data-consent],[${HELD_MARK}]`)) {
    const cat = e.getAttribute('data-consent');
    if (done.has(e) || (cat !== null ? !allowed(cat) : scriptVerdict(e.getAttribute('data-src')).hold)) continue;
    done.add(e);
    if (e.nodeName === 'SCRIPT') ready.push([e, e.getAttribute('data-type') || null]);
    else if (e.hasAttribute('data-src')) e.setAttribute('src', e.getAttribute('data-src'));
  }
  ready.sort(([a], [b]) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  for (const [old, type] of ready) {
    done.add(old);
    chain = chain.then(() => run(old, type));
  }
}

// The third-party script hosts seen so far, for the scripts report: each
// with the category of the rule that matches it now (or null) and whether
// a script of it is still held.
export function scripts() {
  for (const s of document.scripts) {
    const src = s.getAttribute('src');
    const host = src && hostOf(src);
    if (host && !seen.has(host)) note(host, s.src, null, s.type === BLOCKED_TYPE);
  }
  const still = new Set(held.map((s) => hostOf(s.getAttribute('src'))));
  return [...seen].filter(([h]) => h !== location.hostname.toLowerCase()).map(([domain, r]) => {
    const rule = rules && ruleFor(rules, domain);
    return { domain, src: r.src, category: rule ? rule.category : null, blocked: still.has(domain) };
  });
}
