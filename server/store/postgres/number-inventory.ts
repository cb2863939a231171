import type { NumberInventoryRepository } from '../index.js';
import type { StockedNumber } from '../records.js';
import type { Sql } from './sql.js';

interface Row {
  phone_number: string;
  country: 'US' | 'CA';
  area_code: number;
  toll_free: boolean;
  bought_by: string | null;
}

const read = (r: Row): StockedNumber => ({ phoneNumber: r.phone_number, country: r.country, areaCode: r.area_code, tollFree: r.toll_free });

/** The sandbox carrier's stock, shared by every agency. */
export function numberInventoryRepo(sql: Sql): NumberInventoryRepository {
  return {
    async get(phoneNumber) {
      const r = await sql.one<Row>('SELECT * FROM number_inventory WHERE phone_number = $1', [phoneNumber]);
      return r && { ...read(r), sold: r.bought_by !== null };
    },
    available: async (q) =>
      (await sql.rows<Row>(
        `SELECT * FROM number_inventory WHERE bought_by IS NULL AND toll_free = $1 AND ($2::text IS NULL OR country = $2) AND ($3::int IS NULL OR area_code = $3)
         ORDER BY phone_number LIMIT $4`,
        [q.tollFree, q.country, q.areaCode, q.limit],
      )).map(read),
    /** One conditional UPDATE: a racing take waits for the first, then finds the number sold. */
    take: async (agencyId, phoneNumber) => (await sql.run('UPDATE number_inventory SET bought_by = $1 WHERE phone_number = $2 AND bought_by IS NULL', [agencyId, phoneNumber])) === 1,
  };
}
