// dialog.js: the preferences dialog (SDK.md 4): one switch per category,
// save and close.  Modal: focus moves in, stays in, Escape closes and
// focus returns to the opener (the caller restores it).

import { el } from './dom.js';
import { layerAttrs } from './banner.js';
import { isSwitchable } from './state.js';

// view: as for the banner, plus ui (resolvedUi) and cats (sdkCategories);
// allowed: {id: boolean}; on: {save(choice), close()}.
export function buildPrefs(view, allowed, on) {
  const t = view.texts, ui = view.ui || {};
  const rows = view.cats.map((c) => {
    const sw = isSwitchable(c.consentModel);
    const id = 'consent-sw-' + c.id;
    return el('div', { class: 'cat' },
      el('div', { class: 'cat-head' },
        el('label', { for: id, id: id + '-name' }, String(c.name)),
        c.consentModel === 'exempt' ? el('span', { class: 'badge' }, String(ui.required || '')) : null,
        el('input', { type: 'checkbox', role: 'switch', id, 'data-category': c.id,
          checked: !!allowed[c.id] /* a new switch's state */, disabled: !sw, 'aria-describedby': id + '-desc' })),
      el('p', { id: id + '-desc' }, String(c.description || '')));
  });
  const title = ui.preferencesTitle || t.customizeText;
  const box = el('div', { ...layerAttrs(view, 'consent-prefs', 'consent-prefs-title'),
    'aria-modal': 'true', class: 'layer prefs' },
    el('h2', { id: 'consent-prefs-title' }, title),
    ui.preferencesDescription && el('p', {}, ui.preferencesDescription),
    el('div', { class: 'cats' }, ...rows),
    el('div', { class: 'actions' },
      el('button', { type: 'button', 'data-action': 'save', class: 'primary' }, t.savePreferencesText),
      el('button', { type: 'button', 'data-action': 'close', class: 'secondary' }, t.closeText)));
  box.addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-action]');
    if (!b) return;
    if (b.dataset.action === 'close') { on.close(); return; }
    const choice = {};
    for (const input of box.querySelectorAll('input:not([disabled])')) {
      choice[input.dataset.category] = input.checked;
    }
    on.save(choice);
  });
  return el('div', { class: 'backdrop' }, box);
}
