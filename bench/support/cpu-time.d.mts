/**
 * CPU time (user + system) used so far, ms: `pid` a process's (`'self'` this one's, every thread),
 * `'thread-self'` the calling thread's alone. Ticks of 10 ms.
 */
export function cpuMs(pid: number | 'self' | 'thread-self'): number;
