/**
 * The first-visit tour of the table: shown once per browser (remembered in localStorage), never to an
 * automated browser (`navigator.webdriver`), so that test suites see the table as a returning player does.
 */

/** The localStorage key remembering that the tour was seen or skipped. */
export const TOUR_KEY = 'klondike.tourSeen';

/** Whether to show the tour now: a person's first visit. */
export function tourWanted(): boolean {
  if (typeof navigator !== 'undefined' && navigator.webdriver) return false;
  try {
    return localStorage.getItem(TOUR_KEY) === null;
  } catch {
    return false;
  }
}

/** Remembers that the tour was seen (finished or skipped). */
export function tourSeen(): void {
  try {
    localStorage.setItem(TOUR_KEY, '1');
  } catch {
    /* private mode: shown again next visit */
  }
}
