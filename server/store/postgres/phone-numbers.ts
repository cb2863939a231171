import type { PhoneNumbersRepository } from '../index.js';
import type { OwnedNumber } from '../records.js';
import { nowIso } from '../../ids.js';
import type { Sql } from './sql.js';

interface Row {
  phone_number: string;
  nickname: string;
  bound_to_agent: boolean;
  bought_at: string;
  vapi_phone_number_id: string | null;
  twilio_sid: string | null;
}

const read = (r: Row | undefined): OwnedNumber | undefined =>
  r
    ? {
        phoneNumber: r.phone_number,
        nickname: r.nickname,
        boundToAgent: r.bound_to_agent,
        boughtAt: r.bought_at,
        ...(r.vapi_phone_number_id && { vapiPhoneNumberId: r.vapi_phone_number_id }),
        ...(r.twilio_sid && { twilioSid: r.twilio_sid }),
      }
    : undefined;
const GET = 'SELECT * FROM phone_numbers WHERE agency_id = $1 AND phone_number = $2';

/** Numbers an agency owns (bought from the sandbox carrier or Twilio, or registered). */
export function phoneNumbersRepo(sql: Sql): PhoneNumbersRepository {
  return {
    get: async (agencyId, number) => read(await sql.one<Row>(GET, [agencyId, number])),
    list: async (agencyId) => (await sql.rows<Row>('SELECT * FROM phone_numbers WHERE agency_id = $1 ORDER BY bought_at, phone_number', [agencyId])).map((r) => read(r)!),
    async insert(agencyId, number, nickname, boundToAgent) {
      const at = nowIso();
      await sql.run('INSERT INTO phone_numbers (agency_id, phone_number, nickname, bound_to_agent, bought_at) VALUES ($1, $2, $3, $4, $5)', [agencyId, number, nickname, boundToAgent, at]);
      return { phoneNumber: number, nickname, boundToAgent, boughtAt: at };
    },
    ownedElsewhere: async (agencyId, number) =>
      (await sql.one<{ n: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM phone_numbers WHERE phone_number = $1 AND agency_id <> $2)
             OR EXISTS (SELECT 1 FROM number_inventory WHERE phone_number = $1 AND bought_by IS NOT NULL AND bought_by <> $2) AS n`,
        [number, agencyId],
      ))!.n,
    /** One upsert: what it does not name stays as it is, also when two registrations race. */
    async register(agencyId, number, change) {
      const r = await sql.one<Row>(
        `INSERT INTO phone_numbers (agency_id, phone_number, nickname, bound_to_agent, bought_at, vapi_phone_number_id) VALUES ($1, $2, coalesce($3, ''), false, $4, $6)
         ON CONFLICT (agency_id, phone_number) DO UPDATE SET nickname = coalesce($3, phone_numbers.nickname),
           vapi_phone_number_id = CASE WHEN $5 THEN $6 ELSE phone_numbers.vapi_phone_number_id END
         RETURNING *`,
        [agencyId, number, change.nickname ?? null, nowIso(), change.vapiPhoneNumberId !== undefined, change.vapiPhoneNumberId ?? null],
      );
      return read(r)!;
    },
  };
}
