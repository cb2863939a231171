import { PermanentPortError, type NumberInventory } from '../../engine/ports.js';
import type { EffectsRepo } from '../store/effects.js';
import type { NumberInventoryRepo } from '../store/number-inventory.js';

/**
 * The sandbox carrier's number store: picks from the local stock by the criteria. A purchase is an
 * effect keyed by the caller's idempotency key, so a retried purchase returns the same number.
 */
export function sandboxNumberInventory(stock: NumberInventoryRepo, effects: EffectsRepo): NumberInventory {
  return {
    async available(q) {
      return stock
        .available({ country: q.countryCode ?? null, tollFree: q.tollFree === true, areaCode: q.tollFree ? null : (q.areaCode ?? null), limit: q.limit })
        .map((n) => ({ phoneNumber: n.phoneNumber, country: n.country, tollFree: n.tollFree }));
    },
    async buy(req) {
      return effects.once(req.idempotencyKey, req.agencyId, 'buy-number', () => {
        let chosen: { phoneNumber: string; country: string } | undefined;
        if (req.phoneNumber) {
          const row = stock.get(req.phoneNumber);
          if (!row || row.sold) throw new PermanentPortError(`${req.phoneNumber} is not available`);
          if (req.countryCode && row.country !== req.countryCode) throw new PermanentPortError(`${req.phoneNumber} is not a ${req.countryCode} number`);
          chosen = row;
        } else {
          chosen = stock.available({ country: req.countryCode ?? null, tollFree: req.tollFree === true, areaCode: req.tollFree ? null : (req.areaCode ?? null), limit: 1 })[0];
          if (!chosen) {
            const what = [req.tollFree ? 'toll-free' : null, req.areaCode && !req.tollFree ? `area code ${req.areaCode}` : null, req.countryCode].filter(Boolean).join(', ');
            throw new PermanentPortError(`no number available${what ? ` for ${what}` : ''}`);
          }
        }
        stock.take(req.agencyId, chosen.phoneNumber);
        return { phoneNumber: chosen.phoneNumber, country: chosen.country };
      });
    },
  };
}
