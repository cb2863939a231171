import type { CadenceRecord, ReadOptions, Store } from '../../store/index.js';
import type { CreateCadenceBody, PatchCadenceBody } from '../../../schemas/cadence.js';
import { notFound } from '../errors.js';
import { assertStepsUsable } from './windows.js';

/** The agency's saved cadences (spec 4.6): ordered call attempts, each a delay and an optional window. */
export async function loadCadence(store: Store, agencyId: string, id: string, opts?: ReadOptions): Promise<CadenceRecord> {
  const c = await store.cadences.get(agencyId, id, opts);
  if (!c) throw notFound(`cadence ${id} not found`);
  return c;
}

export function createCadence(store: Store, agencyId: string, body: CreateCadenceBody): Promise<CadenceRecord> {
  assertStepsUsable(body.steps);
  return store.cadences.insert({ agencyId, name: body.name, steps: [...body.steps] });
}

/** A rename or new steps; leads already enrolled keep the steps they started with. */
export function updateCadence(store: Store, agencyId: string, id: string, body: PatchCadenceBody): Promise<CadenceRecord> {
  if (body.steps) assertStepsUsable(body.steps);
  return store.withTransaction(async (tx) => {
    const current = await loadCadence(tx, agencyId, id, { forUpdate: true });
    return tx.cadences.save({ ...current, ...(body.name !== undefined && { name: body.name }), ...(body.steps !== undefined && { steps: [...body.steps] }) });
  });
}
