/** Following a run that is still going: read again every `RUN_POLL_MS` until it ends. */
import type { Execution } from './types';

/** How often a run still in progress is read again. */
export const RUN_POLL_MS = 400;
/** After this long a run is no longer watched (Refresh in the Runs tab reads it again). */
export const RUN_WATCH_MS = 180_000;

export interface WatchOptions {
  /** false once the run is no longer wanted (closed, or another opened): the watch stops */
  wanted(): boolean;
  /** each fresh reading */
  onRead(e: Execution): void;
}

/**
 * Reads the run until it is no longer running. Answers how the watch ended: `ended` (the run
 * finished), `dropped` (no longer wanted) or `timeout` (still going after RUN_WATCH_MS). A read
 * that fails is a blip: it is tried again next time.
 */
export async function watchExecution(read: (id: string) => Promise<Execution>, id: string, opts: WatchOptions): Promise<'ended' | 'dropped' | 'timeout'> {
  const until = Date.now() + RUN_WATCH_MS;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, RUN_POLL_MS));
    if (!opts.wanted()) return 'dropped';
    let e: Execution;
    try {
      e = await read(id);
    } catch {
      continue;
    }
    if (!opts.wanted()) return 'dropped';
    opts.onRead(e);
    if (e.status !== 'running') return 'ended';
  }
  return 'timeout';
}
