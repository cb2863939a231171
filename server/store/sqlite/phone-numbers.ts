import type { PhoneNumbersRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { OwnedNumber } from '../records.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';


interface Row {
  phone_number: string;
  nickname: string;
  bound_to_agent: number;
  bought_at: string;
  vapi_phone_number_id: string | null;
  twilio_sid: string | null;
}

/** Numbers an agency owns (bought from the sandbox carrier or Twilio, or registered). */
export function phoneNumbersRepo(db: Db): Sync<PhoneNumbersRepository> {
  const get = db.prepare<[string, string], Row>('SELECT * FROM phone_numbers WHERE agency_id = ? AND phone_number = ?');
  const list = db.prepare<[string], Row>('SELECT * FROM phone_numbers WHERE agency_id = ? ORDER BY bought_at');
  const insert = db.prepare('INSERT INTO phone_numbers (agency_id, phone_number, nickname, bound_to_agent, bought_at) VALUES (?, ?, ?, ?, ?)');
  const register = db.prepare(
    `INSERT INTO phone_numbers (agency_id, phone_number, nickname, bound_to_agent, bought_at, vapi_phone_number_id) VALUES (@agencyId, @number, @nickname, 0, @at, @vapi)
     ON CONFLICT (agency_id, phone_number) DO UPDATE SET nickname = coalesce(@setNickname, nickname), vapi_phone_number_id = CASE WHEN @setVapi THEN @vapi ELSE vapi_phone_number_id END`,
  );
  const elsewhere = db.prepare<{ number: string; agencyId: string }, { n: number }>(
    `SELECT (SELECT count(*) FROM phone_numbers WHERE phone_number = @number AND agency_id <> @agencyId)
          + (SELECT count(*) FROM number_inventory WHERE phone_number = @number AND bought_by IS NOT NULL AND bought_by <> @agencyId) AS n`,
  );
  const read = (r: Row | undefined): OwnedNumber | undefined =>
    r
      ? {
          phoneNumber: r.phone_number,
          nickname: r.nickname,
          boundToAgent: r.bound_to_agent === 1,
          boughtAt: r.bought_at,
          ...(r.vapi_phone_number_id && { vapiPhoneNumberId: r.vapi_phone_number_id }),
          ...(r.twilio_sid && { twilioSid: r.twilio_sid }),
        }
      : undefined;
  return {
    get: (agencyId: string, number: string) => read(get.get(agencyId, number)),
    list: (agencyId: string) => list.all(agencyId).map((r) => read(r)!),
    insert(agencyId: string, number: string, nickname: string, boundToAgent: boolean): OwnedNumber {
      const at = nowIso();
      insert.run(agencyId, number, nickname, boundToAgent ? 1 : 0, at);
      return { phoneNumber: number, nickname, boundToAgent, boughtAt: at };
    },
    /** Whether another agency owns the number (here, or bought from the sandbox carrier). */
    ownedElsewhere: (agencyId: string, number: string) => elsewhere.get({ number, agencyId })!.n > 0,
    /** Registers (or updates) a number the agency has at its voice platform; undefined fields are left as they are. */
    register(agencyId: string, number: string, change: { nickname?: string; vapiPhoneNumberId?: string | null }): OwnedNumber {
      register.run({
        agencyId, number, at: nowIso(), nickname: change.nickname ?? '', setNickname: change.nickname ?? null,
        setVapi: change.vapiPhoneNumberId !== undefined ? 1 : 0, vapi: change.vapiPhoneNumberId ?? null,
      });
      return read(get.get(agencyId, number))!;
    },
  };
}
