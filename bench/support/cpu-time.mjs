// CPU time from Linux's /proc, shared by bench/figures.ts and the load threads (plain JavaScript,
// which a worker thread runs without a TypeScript loader).
import fs from 'node:fs';

/** Clock ticks a second in /proc's times (USER_HZ). */
const CLOCK_TICKS = 100;

/**
 * CPU time (user + system) used so far, ms: `pid` a process's (`'self'` this one's, every thread),
 * `'thread-self'` the calling thread's alone. Ticks of 10 ms.
 */
export function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS);
}
