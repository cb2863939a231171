import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

/** Listens on a free loopback port: the origin (no trailing slash) and a close that waits for it. */
export async function serve(app: Koa) {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A floor's HTTP entry: bare Koa that reads the JSON body, hands it to `start` and answers `status`
 * with what it returns; no parser, router or anything else of ours.
 */
export function startEndpoint<B>(start: (body: B) => Promise<unknown>, status = 200): Koa {
  const app = new Koa();
  app.use(async (ctx) => {
    const data = await start((await jsonBody(ctx.req)) as B);
    ctx.status = status;
    ctx.body = { success: true, data };
  });
  return app;
}

/** A request's body read whole and parsed as JSON, with no parser middleware. */
export async function jsonBody(req: AsyncIterable<unknown>): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString());
}
