/**
 * Toasts (visible, transient) and announcements (the aria-live region read by screen readers). App-wide.
 */
import { reactive, ref } from 'vue';

export interface Toast {
  readonly id: number;
  readonly text: string;
  readonly kind: 'error' | 'info';
}

const toasts = reactive<Toast[]>([]);
const announcement = ref('');
let nextId = 1;
let announceSeq = 0;

function dismiss(id: number): void {
  const i = toasts.findIndex((t) => t.id === id);
  if (i >= 0) toasts.splice(i, 1);
}

function toast(text: string, kind: Toast['kind'] = 'error', ms = 3500): void {
  // Do not stack the same message.
  const same = toasts.find((t) => t.text === text);
  if (same) dismiss(same.id);
  const id = nextId++;
  toasts.push({ id, text, kind });
  while (toasts.length > 3) toasts.shift();
  setTimeout(() => dismiss(id), ms);
}

/** Says `text` through the live region (re-announces identical text too). */
function announce(text: string): void {
  const seq = ++announceSeq;
  announcement.value = '';
  // Changing the text on the next frame makes screen readers read a repeated message again.
  setTimeout(() => {
    if (seq === announceSeq) announcement.value = text;
  }, 30);
}

export function useNotify() {
  return { toasts, announcement, toast, announce, dismiss };
}
