/**
 * In-app confirmation of a step that cannot be taken back (resigning, signing out): one question at a time,
 * shown by <ConfirmDialog> (mounted once in App.vue) in the site's own dialog style instead of the browser's
 * `window.confirm`, which blocks the page, looks like an error and cannot be styled or translated whole.
 */
import { readonly, ref } from 'vue';

/** The question on screen: its text, the label of the button that confirms it, and how it ends. */
export interface ConfirmRequest {
  readonly question: string;
  /** The confirming button's label, naming the step ("Resign", "Sign out everywhere"). */
  readonly confirmLabel: string;
  readonly resolve: (confirmed: boolean) => void;
}

const current = ref<ConfirmRequest | null>(null);

/** The question on screen, if any (read-only; answer it with `answerConfirm`). */
export const confirmRequest = readonly(current);

/**
 * Asks `question`; resolves true when the player confirms, false when they cancel (the Cancel button, Escape
 * or a click beside the dialog). A question asked while another is open answers the open one false first.
 */
export function askConfirm(question: string, confirmLabel: string): Promise<boolean> {
  current.value?.resolve(false);
  return new Promise<boolean>((resolve) => {
    current.value = {
      question,
      confirmLabel,
      resolve: (confirmed) => {
        current.value = null;
        resolve(confirmed);
      },
    };
  });
}

/** Answers the question on screen (nothing when none is). */
export function answerConfirm(confirmed: boolean): void {
  current.value?.resolve(confirmed);
}
