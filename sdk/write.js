// write.js: markup given to document.write and writeln, rewritten before
// the parser sees it (SDK.md 5).  A script the parser would fetch and run
// at once, inside write() where no MutationObserver can act, leaves here
// with a type no browser runs; an iframe or image leaves with its src as
// data-src and a data-consent-held mark, which hold.js's release() turns
// back into a src once nothing holds the host.
//
// The markup is scanned as text, never parsed into a document: a parse (a
// <template>'s innerHTML, DOMParser) would need the SDK to hand page text
// to an HTML sink, which Trusted Types forbids, and its serialisation
// would not give back the page's bytes.  Everything but the start tags
// rebuilt here is passed on byte for byte; the contents of comments and of
// raw-text elements (script, style, textarea, title, iframe, noscript,
// xmp) are skipped, as the parser treats them.

// A held written script's type: this, then its own type when it had one.
export const WRITTEN_TYPE = 'javascript/held;';
// A held written iframe's or image's mark.
export const HELD_MARK = 'data-consent-held';

const TAG = /<!--[\s\S]*?(?:-->|$)|<(script|iframe|img|style|textarea|title|noscript|xmp)(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;

// Whether a script of type `t` (null: no type attribute) is JavaScript.
export const isJs = (t) => !t || /^(text|application)\/(x-)?(java|ecma)script$|^module$/i.test(t.trim());
// An attribute's value as the parser gives it, for the few character
// references a URL or a type is likely to hold.
const text = (v) => v.replace(/^(["'])(.*)\1$/s, '$2')
  .replace(/&(amp|quot|#39|apos);/g, (_, e) => ({ amp: '&', quot: '"' }[e] || "'"));

// The start tag <NAME RAW> rebuilt when holding calls for it, else null:
// the attributes kept as written, the new ones after them.
// held(url, name): whether holding calls for a tag NAME of that src.
function rebuild(name, raw, held) {
  const list = [...raw.matchAll(ATTR)].map((m) => [m[1].toLowerCase(), m[2], m[0]]);
  const find = (n) => list.find(([k]) => k === n);
  const value = (n) => { const a = find(n); return a ? text(a[1] || '') : null; };
  const keep = (drop) => list.filter(([k]) => !drop.includes(k)).map((a) => ' ' + a[2]).join('');
  const src = value('src');
  const type = value('type');
  if (!src || (name === 'script' && !isJs(type)) || !held(src, name)) return null;
  if (name === 'script') return `<script${keep(['type'])} type="${WRITTEN_TYPE}${(type || '').replace(/"/g, '')}">`;
  const v = find('src')[1];
  return `<${name}${keep(['src', 'data-src'])} ${HELD_MARK} data-src=${/^["']/.test(v) ? v : '"' + v + '"'}>`;
}

// The markup `html` with the start tags holding calls for rebuilt; `html`
// itself (the same string) when there are none.
export function rewrite(html, held) {
  let out = '', at = 0, m, lower;
  TAG.lastIndex = 0;
  while ((m = TAG.exec(html))) {
    const name = m[1]?.toLowerCase();
    if (!name) continue;
    const end = TAG.lastIndex;
    if (name === 'script' || name === 'iframe' || name === 'img') {
      const tag = rebuild(name, m[2], held);
      if (tag) { out += html.slice(at, m.index) + tag; at = end; }
    }
    if (name !== 'img') {
      const close = (lower ??= html.toLowerCase()).indexOf('</' + name, end);
      TAG.lastIndex = close < 0 ? html.length : close;
    }
  }
  return at ? out + html.slice(at) : html;
}
