/**
 * Fixtures for the unit tests: PlayerViews (the rules package's own, `@klondike/rules/testing`) and a socket
 * whose frames the test sends and reads.
 */
import type { ClientFrame, ServerFrame } from '@klondike/protocol';
import { ref } from 'vue';
import type { Socket, SocketStatus } from '../src/composables/useSocket';

export { makeView, type ViewSpec } from '@klondike/rules/testing';

/**
 * A socket in `initial` status whose frames the test reads (`sent`, only while `status` is open) and gives
 * (`receive` delivers one to every `onFrame` handler); `onOpen` handlers are kept for the test to run.
 */
export function fakeSocket(initial: SocketStatus = 'open') {
  const status = ref<SocketStatus>(initial);
  const sent: ClientFrame[] = [];
  const frameHandlers = new Set<(f: ServerFrame) => void>();
  const openHandlers = new Set<() => void>();
  const socket: Socket = {
    status,
    send: (frame) => {
      if (status.value !== 'open') return false;
      sent.push(frame);
      return true;
    },
    onFrame: (h) => {
      frameHandlers.add(h);
      return () => frameHandlers.delete(h);
    },
    onOpen: (h) => {
      openHandlers.add(h);
      return () => openHandlers.delete(h);
    },
    reconnectNow: () => {},
    setAuth: () => {},
    close: () => {},
  };
  return {
    socket,
    status,
    sent,
    frameHandlers,
    openHandlers,
    /** Delivers a frame from the "server". */
    receive: (frame: ServerFrame) => [...frameHandlers].forEach((h) => h(frame)),
  };
}
