// Small helpers for building the page.

/** `h('button', {class: 'x', onclick}, 'text', child)`: an element with attributes,
 *  listeners (keys starting with "on") and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    // Through the CSSOM, which the server's Content-Security-Policy allows (a style
    // attribute would need 'unsafe-inline').
    else if (k === 'style') node.style.cssText = v;
    else if (v === true) node.setAttribute(k, '');
    else node.setAttribute(k, v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** "Seat 2" for seat index 1. */
export const seatName = (seat) => `Seat ${seat + 1}`;

/** Copies text, falling back to selecting it where the clipboard is not available. */
export async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.select();
    }
    return false;
  }
}
