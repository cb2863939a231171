import type { Ports } from '../../engine/ports.js';

/**
 * A calendar port whose bookings wait at a gate, so a test can look at a run mid-way (a step
 * running, the next not reached) without timing: `hold()` closes the gate, `release()` opens it.
 * Starts closed when `closed` is true.
 */
export function bookingGate(closed = false) {
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const hold = () => {
    gate = new Promise((r) => (release = r));
  };
  if (closed) hold();
  return {
    ports: (base: Ports): Ports => ({
      ...base,
      calendar: {
        book: async (e, r) => {
          await gate;
          return base.calendar.book(e, r);
        },
      },
    }),
    hold,
    release: () => release(),
  };
}
