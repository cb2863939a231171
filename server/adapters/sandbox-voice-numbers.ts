import { PermanentPortError, type NumberInventory } from '../../engine/ports.js';
import type { Store } from '../store/index.js';
import { effectOnce } from './effect-once.js';

/**
 * The sandbox carrier's number store: picks from the local stock by the criteria. A purchase is an
 * effect keyed by the caller's idempotency key, so a retried purchase returns the same number.
 */
export function sandboxNumberInventory(store: Store): NumberInventory {
  return {
    async available(q) {
      return (await store.numberInventory.available({ country: q.countryCode ?? null, tollFree: q.tollFree === true, areaCode: q.tollFree ? null : (q.areaCode ?? null), limit: q.limit }))
        .map((n) => ({ phoneNumber: n.phoneNumber, country: n.country, tollFree: n.tollFree }));
    },
    async buy(req) {
      return effectOnce(store, req, 'buy-number', async (tx) => {
        let chosen: { phoneNumber: string; country: string } | undefined;
        if (req.phoneNumber) {
          const row = await tx.numberInventory.get(req.phoneNumber);
          if (!row || row.sold) throw new PermanentPortError(`${req.phoneNumber} is not available`);
          if (req.countryCode && row.country !== req.countryCode) throw new PermanentPortError(`${req.phoneNumber} is not a ${req.countryCode} number`);
          chosen = row;
        } else {
          chosen = (await tx.numberInventory.available({ country: req.countryCode ?? null, tollFree: req.tollFree === true, areaCode: req.tollFree ? null : (req.areaCode ?? null), limit: 1 }))[0];
          if (!chosen) {
            const what = [req.tollFree ? 'toll-free' : null, req.areaCode && !req.tollFree ? `area code ${req.areaCode}` : null, req.countryCode].filter(Boolean).join(', ');
            throw new PermanentPortError(`no number available${what ? ` for ${what}` : ''}`);
          }
        }
        // Sold between the read and now (another buyer's transaction, on a store with concurrent
        // writers): never sold twice.
        if (!(await tx.numberInventory.take(req.agencyId, chosen.phoneNumber))) throw new PermanentPortError(`${chosen.phoneNumber} is not available`);
        return { phoneNumber: chosen.phoneNumber, country: chosen.country };
      });
    },
  };
}
