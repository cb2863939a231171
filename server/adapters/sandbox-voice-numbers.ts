import { PermanentPortError, type NumberInventory } from '../../engine/ports.js';
import type { Db } from '../store/db.js';
import type { EffectsRepo } from '../store/effects.js';

/**
 * The sandbox carrier's number store: picks from the local stock by the criteria. A purchase is an
 * effect keyed by the caller's idempotency key, so a retried purchase returns the same number.
 */
export function sandboxNumberInventory(db: Db, effects: EffectsRepo): NumberInventory {
  const specific = db.prepare<[string], { phone_number: string; country: string; toll_free: number; bought_by: string | null }>(
    'SELECT * FROM number_inventory WHERE phone_number = ?',
  );
  const pick = db.prepare<{ country: string | null; tollFree: number; areaCode: number | null }, { phone_number: string; country: string }>(
    `SELECT phone_number, country FROM number_inventory
     WHERE bought_by IS NULL AND toll_free = @tollFree
       AND (@country IS NULL OR country = @country) AND (@areaCode IS NULL OR area_code = @areaCode)
     ORDER BY phone_number LIMIT 1`,
  );
  const take = db.prepare('UPDATE number_inventory SET bought_by = ? WHERE phone_number = ? AND bought_by IS NULL');
  return {
    async buy(req) {
      return effects.once(req.idempotencyKey, req.agencyId, 'buy-number', () => {
        let chosen: { phone_number: string; country: string } | undefined;
        if (req.phoneNumber) {
          const row = specific.get(req.phoneNumber);
          if (!row || row.bought_by) throw new PermanentPortError(`${req.phoneNumber} is not available`);
          if (req.countryCode && row.country !== req.countryCode) throw new PermanentPortError(`${req.phoneNumber} is not a ${req.countryCode} number`);
          chosen = row;
        } else {
          chosen = pick.get({ country: req.countryCode ?? null, tollFree: req.tollFree ? 1 : 0, areaCode: req.tollFree ? null : (req.areaCode ?? null) });
          if (!chosen) {
            const what = [req.tollFree ? 'toll-free' : null, req.areaCode && !req.tollFree ? `area code ${req.areaCode}` : null, req.countryCode].filter(Boolean).join(', ');
            throw new PermanentPortError(`no number available${what ? ` for ${what}` : ''}`);
          }
        }
        take.run(req.agencyId, chosen.phone_number);
        return { phoneNumber: chosen.phone_number, country: chosen.country };
      });
    },
  };
}
