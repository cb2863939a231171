import type { Migration } from './index.js';

/** Area codes the sandbox carrier stocks, ten numbers each, plus toll-free. Deterministic on purpose. */
const STOCK: { country: 'US' | 'CA'; areaCodes: number[] }[] = [
  { country: 'US', areaCodes: [212, 305, 312, 415, 512, 617, 702, 737, 972] },
  { country: 'CA', areaCodes: [416, 514, 604] },
];
const TOLL_FREE = [800, 833, 844, 888];

export const m002PhoneNumbers: Migration = {
  name: 'phone-numbers',
  up(db) {
    db.exec(`
      -- The sandbox carrier's stock: numbers not yet bought by anyone.
      CREATE TABLE number_inventory (
        phone_number TEXT PRIMARY KEY,
        country TEXT NOT NULL,
        area_code INTEGER NOT NULL,
        toll_free INTEGER NOT NULL,
        bought_by TEXT
      ) STRICT;
      CREATE INDEX number_inventory_pick ON number_inventory(country, toll_free, area_code) WHERE bought_by IS NULL;

      CREATE TABLE phone_numbers (
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        phone_number TEXT NOT NULL,
        nickname TEXT NOT NULL,
        bound_to_agent INTEGER NOT NULL DEFAULT 0,
        bought_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, phone_number)
      ) STRICT;
    `);
    const insert = db.prepare('INSERT INTO number_inventory (phone_number, country, area_code, toll_free) VALUES (?, ?, ?, ?)');
    for (const { country, areaCodes } of STOCK) {
      for (const area of areaCodes) {
        for (let i = 0; i < 10; i++) insert.run(`+1${area}555${String(1000 + i * 37).padStart(4, '0')}`, country, area, 0);
      }
    }
    for (const area of TOLL_FREE) {
      for (let i = 0; i < 10; i++) insert.run(`+1${area}555${String(2000 + i * 41).padStart(4, '0')}`, 'US', area, 1);
    }
  },
};
