// banner.js: the first layer (SDK.md 4): title, description and the
// buttons the consent models call for, built with text nodes only.

import { el } from './dom.js';

// The branding of free sites names the product and links to the service
// that serves it (data-api): on a hosted deployment, the provider's site.
export const BRAND_TEXT = 'Powered by consent';

// The attributes both layers share: language, direction, theme, position.
export function layerAttrs(view, id, labelId) {
  return {
    id, role: 'dialog', 'aria-labelledby': labelId, lang: view.lang, dir: view.dir,
    'data-theme': view.theme, 'data-position': view.position,
  };
}

// view: {texts, kind, lang, dir, theme, position, branding (a URL or null)}
// on: {accept, reject, customize}; returns the banner element.
export function buildBanner(view, on) {
  const t = view.texts;
  const modal = view.position === 'center-modal';
  const buttons = view.kind === 'notice'
    ? [el('button', { type: 'button', 'data-action': 'acknowledge', class: 'primary' }, t.acceptAllText)]
    : [el('button', { type: 'button', 'data-action': 'accept', class: 'primary' }, t.acceptAllText),
       el('button', { type: 'button', 'data-action': 'reject', class: 'primary' }, t.rejectAllText)];
  const box = el('div', { ...layerAttrs(view, 'consent-banner', 'consent-banner-title'),
    'aria-modal': String(modal), 'aria-describedby': 'consent-banner-desc', class: 'layer banner' },
    el('h2', { id: 'consent-banner-title' }, t.title),
    el('p', { id: 'consent-banner-desc' }, t.description),
    el('div', { class: 'actions' }, ...buttons),
    view.kind === 'notice' ? null : el('div', { class: 'more' },
      el('button', { type: 'button', 'data-action': 'customize', class: 'link' }, t.customizeText)),
    view.branding ? el('a', { href: view.branding, 'data-branding': true, class: 'brand',
      target: '_blank', rel: 'noopener' }, BRAND_TEXT) : null);
  box.addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-action]');
    if (!b) return;
    const a = b.dataset.action;
    if (a === 'customize') on.customize(b);
    else on[a === 'reject' ? 'reject' : 'accept'](a === 'acknowledge' ? 'acknowledge' : a + '_all');
  });
  return modal ? el('div', { class: 'backdrop' }, box) : box;
}
