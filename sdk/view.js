// view.js: the banner and the preferences dialog on the page (SDK.md 4):
// the shadow root they live in, which layer shows, and where focus goes;
// and what a held embed's placeholder says (hold.js puts it in place).
// What they say comes from the state index.js keeps; what a button does is
// index.js's decide().

import * as S from './state.js';
import { el, trapFocus, focusables } from './dom.js';
import { buildBanner } from './banner.js';
import { buildPrefs } from './dialog.js';
// style.css minified: the build resolves this name to build/sdk/style.min.css.
import css from 'consent-style.css';

// st: index.js's state (read; bannerAt and prefsOpened written here);
// on: {decide(how, interaction, choice), impression()}; api: data-api.
let st = null, on = null, api = '';
let root = null, bannerNode = null, prefsNode = null, untrap = null, opener = null;

export function init(state, handlers, apiBase) { st = state; on = handlers; api = apiBase; }

export function whenBody(fn) {
  if (document.body) fn();
  else document.addEventListener('DOMContentLoaded', fn, { once: true });
}

// The configured position of the banner, bottom-full when not a known one.
export function position(answer) {
  const p = answer?.config.appearance?.position;
  return /^(bottom-(full|left|right)|top-full|center-modal)$/.test(p) ? p : 'bottom-full';
}

// The stylesheet, one for the layers' shadow root and the placeholders'.
let sheet = null;
function styles() {
  if (!sheet) { sheet = new CSSStyleSheet(); sheet.replaceSync(css); }
  return [sheet];
}

function mount() {
  if (root) return root;
  const host = el('div', { id: 'consent-host' });
  // CSSOM, not a style attribute: a strict CSP allows it.  Nothing of
  // the page's applies to the host; fixed, empty, it has no size.
  host.style.cssText = 'all:initial!important;position:fixed!important;inset:0 auto auto 0!important;z-index:2147483647!important';
  root = host.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = styles();
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
      : /^(ar|fa|he|ur)\b/i.test(lang) ? 'rtl' : 'ltr',
    theme: /^(light|dark|auto)$/.test(ap.theme) ? ap.theme : 'light',
    position: position(a), kind: S.bannerKind(st.cats),
    branding: a.showBranding === true ? api + '/' : null,
  };
}

function untrapAll() { if (untrap) { untrap(); untrap = null; } }

export function showBanner() {
  if (!st.answer || S.bannerKind(st.cats) === 'none') return;
  const r = mount();
  if (!bannerNode) {
    bannerNode = buildBanner(view(), {
      accept: (i) => on.decide('accept', i),
      reject: (i) => on.decide('reject', i),
      customize: (b) => showPreferences(b),
    });
    r.append(bannerNode);
  }
  bannerNode.hidden = false;
  if (!st.bannerAt) {
    st.bannerAt = performance.now();
    on.impression();
  }
  if (view().position === 'center-modal') {
    untrapAll();
    untrap = trapFocus(bannerNode, () => {});
    bannerNode.querySelector('button').focus();
  }
}

export function showPreferences(from) {
  if (!st.answer) return;
  const r = mount();
  opener = from || (document.activeElement !== document.body ? document.activeElement : null);
  st.prefsOpened = true;
  if (prefsNode) prefsNode.remove();
  untrapAll();
  if (bannerNode) bannerNode.hidden = true;
  prefsNode = buildPrefs(view(), st.allowed, {
    save: (choice) => on.decide('save', 'save_preferences', choice),
    close: closeAll,
  });
  r.append(prefsNode);
  untrap = trapFocus(prefsNode, closeAll);
  focusables(prefsNode)[0].focus();
}

// Close the dialog; the banner too once decided, else it comes back.
// Focus returns to what opened the dialog, unless that is hidden now.
export function closeAll() {
  untrapAll();
  if (prefsNode) { prefsNode.remove(); prefsNode = null; }
  if (bannerNode) { if (st.decided) bannerNode.hidden = true; else showBanner(); }
  if (opener?.isConnected && !opener.closest('[hidden]')) opener.focus();
  opener = null;
}

// Fill a held embed's placeholder (hold.js), once, when the texts are
// known: what it is (the iframe's title, else its provider), who hosts it,
// the category it needs and a button that allows that category (a
// decision like a saved choice).  Inside its own shadow root: no style of
// the page's reaches it, and none of it needs a style attribute.
export function showEmbed(ph, frame, [provider, cat]) {
  if (!st.answer || ph.shadowRoot) return;
  const v = view(), c = st.cats.find((x) => x.id === cat);
  const say = (k) => (v.ui?.[k] || '').replace('{provider}', provider).replace('{category}', c ? c.name : cat);
  const b = c && el('button', { type: 'button', class: 'primary' }, say('embedAllow') || c.name);
  if (b) b.onclick = () => on.decide('save', 'allow_embed', { [cat]: true });
  const r = ph.attachShadow({ mode: 'open' });
  r.adoptedStyleSheets = styles();
  r.append(el('div', { class: 'embed', lang: v.lang, dir: v.dir, 'data-theme': v.theme },
    el('p', {}, el('b', {}, frame.title || provider)), el('p', {}, say('embedText')), b));
}
