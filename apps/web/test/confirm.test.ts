/** The in-app confirmation (composables/useConfirm.ts): one question at a time, answered once. */
import { describe, expect, it } from 'vitest';
import { answerConfirm, askConfirm, confirmRequest } from '../src/composables/useConfirm';

describe('askConfirm', () => {
  it('shows the question with its button label and resolves with the answer, then nothing is open', async () => {
    const yes = askConfirm('Resign this game?', 'Resign');
    expect(confirmRequest.value?.question).toBe('Resign this game?');
    expect(confirmRequest.value?.confirmLabel).toBe('Resign');
    answerConfirm(true);
    expect(await yes).toBe(true);
    expect(confirmRequest.value).toBeNull();

    const no = askConfirm('Sign out?', 'Sign out');
    answerConfirm(false);
    expect(await no).toBe(false);
    expect(confirmRequest.value).toBeNull();
  });

  it('a second question answers the open one "no" first; an answer with nothing open does nothing', async () => {
    const first = askConfirm('First?', 'Yes');
    const second = askConfirm('Second?', 'Yes');
    expect(await first).toBe(false);
    expect(confirmRequest.value?.question).toBe('Second?');
    answerConfirm(true);
    expect(await second).toBe(true);
    answerConfirm(true);
    expect(confirmRequest.value).toBeNull();
  });
});
