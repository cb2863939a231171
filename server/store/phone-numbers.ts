import type { Db } from './db.js';
import { nowIso } from './ids.js';

export interface OwnedNumber {
  phoneNumber: string;
  nickname: string;
  boundToAgent: boolean;
  boughtAt: string;
}

interface Row {
  phone_number: string;
  nickname: string;
  bound_to_agent: number;
  bought_at: string;
}

/** Numbers an agency owns (bought through the voice platform). */
export function phoneNumbersRepo(db: Db) {
  const get = db.prepare<[string, string], Row>('SELECT * FROM phone_numbers WHERE agency_id = ? AND phone_number = ?');
  const list = db.prepare<[string], Row>('SELECT * FROM phone_numbers WHERE agency_id = ? ORDER BY bought_at');
  const insert = db.prepare('INSERT INTO phone_numbers (agency_id, phone_number, nickname, bound_to_agent, bought_at) VALUES (?, ?, ?, ?, ?)');
  const read = (r: Row | undefined): OwnedNumber | undefined =>
    r ? { phoneNumber: r.phone_number, nickname: r.nickname, boundToAgent: r.bound_to_agent === 1, boughtAt: r.bought_at } : undefined;
  return {
    get: (agencyId: string, number: string) => read(get.get(agencyId, number)),
    list: (agencyId: string) => list.all(agencyId).map((r) => read(r)!),
    insert(agencyId: string, number: string, nickname: string, boundToAgent: boolean): OwnedNumber {
      const at = nowIso();
      insert.run(agencyId, number, nickname, boundToAgent ? 1 : 0, at);
      return { phoneNumber: number, nickname, boundToAgent, boughtAt: at };
    },
  };
}
export type PhoneNumbersRepo = ReturnType<typeof phoneNumbersRepo>;
