/** How a benchmark's load arrives: a closed loop of a fixed width, or an open loop at a fixed rate. */

/** Runs `fn` over the items with `width` in flight. */
export async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  let i = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (i < items.length) await fn(items[i++]!);
  }));
}

/** Open loop: call `fire` at `rate` per second for `seconds`, never waiting for earlier calls; resolves with every call's result. */
export async function offered<T>(rate: number, seconds: number, fire: (i: number) => Promise<T>): Promise<T[]> {
  const n = Math.round(rate * seconds);
  const t0 = performance.now();
  const all: Promise<T>[] = [];
  for (let i = 0; i < n; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    all.push(fire(i));
  }
  return Promise.all(all);
}
