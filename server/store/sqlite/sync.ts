/**
 * A repository of the port as the SQLite implementation writes it: the same methods, answering
 * synchronously (better-sqlite3 runs a prepared statement to completion in the call). The store
 * (store.ts) turns each into the port's asynchronous method, so a mismatch between the two is a
 * compile error here, not a surprise at run time.
 */
export type Sync<T> = { [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K] };
