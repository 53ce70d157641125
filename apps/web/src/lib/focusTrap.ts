/**
 * Keeps the keyboard inside a dialog (aria-modal): Tab from its last focusable control goes to its first, and
 * Shift+Tab from its first to its last. Pure DOM; call it from the dialog's keydown handler.
 */

/** The focusable controls of `root`, in document order (enabled, not hidden by `hidden`). */
export function focusables(root: HTMLElement): HTMLElement[] {
  return [
    ...root.querySelectorAll<HTMLElement>(
      'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])',
    ),
  ].filter((el) => !el.closest('[hidden]') && !(el instanceof HTMLInputElement && el.type === 'hidden'));
}

/**
 * On Tab or Shift+Tab at either end of `root`'s focusable controls, moves focus to the other end and returns
 * true (the key is used); otherwise returns false and the browser moves focus as usual. A radio group counts
 * once (only its checked radio is reached by Tab).
 */
export function keepFocusIn(root: HTMLElement, e: KeyboardEvent): boolean {
  if (e.key !== 'Tab') return false;
  const all = focusables(root);
  const radio = (el: HTMLElement): el is HTMLInputElement =>
    el instanceof HTMLInputElement && el.type === 'radio';
  // A group is reached at its checked radio, or at its first one when none is checked.
  const list = all.filter((el) => {
    if (!radio(el) || el.checked) return true;
    const group = all.filter((o) => radio(o) && o.name === el.name) as HTMLInputElement[];
    return !group.some((o) => o.checked) && group[0] === el;
  });
  const first = list[0];
  const last = list.at(-1);
  if (!first || !last) return false;
  const active = document.activeElement;
  const atFirst = active === first || !root.contains(active);
  if (e.shiftKey ? atFirst : active === last) {
    e.preventDefault();
    (e.shiftKey ? last : first).focus();
    return true;
  }
  return false;
}
