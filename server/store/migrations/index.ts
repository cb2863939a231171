import type Database from 'better-sqlite3';
import { m001Core } from './001-core.js';
import { m002PhoneNumbers } from './002-phone-numbers.js';
import { m003PowerDialer } from './003-power-dialer.js';

export interface Migration {
  name: string;
  up(db: Database.Database): void;
}

/** Ordered; the position in this list is the schema version it produces (1-based). Never reorder. */
export const migrations: Migration[] = [m001Core, m002PhoneNumbers, m003PowerDialer];
