// dom.js: the one element helper.  Children given as strings become text
// nodes: no published text ever reaches innerHTML.

// el('button', {type: 'button', 'data-action': 'accept'}, 'Accept all')
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v == null) continue;
    e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) {
    if (c == null || c === false) continue;
    e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return e;
}

// The elements of `root` that take focus with Tab, in order.
export function focusables(root) {
  return [...root.querySelectorAll('button, a[href], input:not([disabled])')]
    .filter((e) => !e.closest('[hidden]'));
}

// Keep Tab and Shift+Tab inside `box` (a modal layer), focus the first
// control, and call onEscape for Escape.  Returns a function that undoes it.
export function trapFocus(box, onEscape) {
  const key = (ev) => {
    if (ev.key === 'Escape') { ev.preventDefault(); onEscape(); return; }
    if (ev.key !== 'Tab') return;
    const list = focusables(box), n = list.length, i = list.indexOf(box.getRootNode().activeElement);
    const next = ev.shiftKey ? i <= 0 && list[n - 1] : (i < 0 || i === n - 1) && list[0];
    if (next) { ev.preventDefault(); next.focus(); }
  };
  // Focus that leaves the layer (a click on the page behind, a screen
  // reader's jump) is brought back to its first control.
  const host = box.getRootNode().host;
  const back = (ev) => {
    if (ev.target !== host) focusables(box)[0]?.focus();
  };
  box.addEventListener('keydown', key);
  document.addEventListener('focusin', back);
  return () => {
    box.removeEventListener('keydown', key);
    document.removeEventListener('focusin', back);
  };
}
