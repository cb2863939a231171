import type { NumberInventoryRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { StockedNumber } from '../records.js';
import type { Db } from './db.js';


interface Row {
  phone_number: string;
  country: 'US' | 'CA';
  area_code: number;
  toll_free: number;
  bought_by: string | null;
}

const read = (r: Row): StockedNumber => ({ phoneNumber: r.phone_number, country: r.country, areaCode: r.area_code, tollFree: r.toll_free === 1 });

/**
 * The sandbox carrier's stock (migration 002): one carrier shared by every agency, as a real one
 * is, so its unsold numbers are no tenant's data; who bought one is never read back out.
 */
export function numberInventoryRepo(db: Db): Sync<NumberInventoryRepository> {
  const specific = db.prepare<[string], Row>('SELECT * FROM number_inventory WHERE phone_number = ?');
  const available = db.prepare<{ country: string | null; tollFree: number; areaCode: number | null; limit: number }, Row>(
    `SELECT * FROM number_inventory
     WHERE bought_by IS NULL AND toll_free = @tollFree
       AND (@country IS NULL OR country = @country) AND (@areaCode IS NULL OR area_code = @areaCode)
     ORDER BY phone_number LIMIT @limit`,
  );
  const take = db.prepare('UPDATE number_inventory SET bought_by = ? WHERE phone_number = ? AND bought_by IS NULL');
  return {
    /** the number, and whether it is still for sale */
    get(phoneNumber: string): (StockedNumber & { sold: boolean }) | undefined {
      const r = specific.get(phoneNumber);
      return r && { ...read(r), sold: r.bought_by !== null };
    },
    /** unsold numbers matching the criteria, in number order */
    available(q: { country: 'US' | 'CA' | null; tollFree: boolean; areaCode: number | null; limit: number }): StockedNumber[] {
      return available.all({ country: q.country, tollFree: q.tollFree ? 1 : 0, areaCode: q.areaCode, limit: q.limit }).map(read);
    },
    /** sells the number to the agency; false when it was sold already */
    take: (agencyId: string, phoneNumber: string) => take.run(agencyId, phoneNumber).changes === 1,
  };
}
