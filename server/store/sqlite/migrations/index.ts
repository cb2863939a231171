import type Database from 'better-sqlite3';
import { m001Core } from './001-core.js';
import { m002PhoneNumbers } from './002-phone-numbers.js';
import { m003PowerDialer } from './003-power-dialer.js';
import { m004TenantScopedKeys } from './004-tenant-scoped-keys.js';
import { m005RetriesAndSignatures } from './005-retries-and-signatures.js';
import { m006Providers } from './006-providers.js';
import { m007VoicePlatform } from './007-voice-platform.js';
import { m008WorkflowTools } from './008-workflow-tools.js';
import { m009Ops } from './009-ops.js';
import { m010LeadSearch } from './010-lead-search.js';
import { m011LeadSearchFilters } from './011-lead-search-filters.js';
import { m012LeadSearchCadences } from './012-lead-search-cadences.js';
import { m013LeadSearchWriteBehind } from './013-lead-search-write-behind.js';
import { m014NumberPurchases } from './014-number-purchases.js';
import { m015Leases } from './015-leases.js';
import { m016StepStats } from './016-step-stats.js';
import { m017Replays } from './017-replays.js';

/** How far a long step is: `done` of `total` `unit` (e.g. 50000, 1000000, 'leads'). */
export type StepProgress = (done: number, total: number, unit: string) => void;

export interface Migration {
  name: string;
  /** `progress`: told as a step that goes through every row of a large table advances. */
  up(db: Database.Database, progress?: StepProgress): void;
  /**
   * The step rebuilds tables that others reference (a key change): it runs with foreign keys off,
   * as SQLite's table-rebuild procedure requires, and must leave `foreign_key_check` clean.
   */
  foreignKeysOff?: boolean;
}

/** Ordered; the position in this list is the schema version it produces (1-based). Never reorder. */
export const migrations: Migration[] = [m001Core, m002PhoneNumbers, m003PowerDialer, m004TenantScopedKeys, m005RetriesAndSignatures, m006Providers, m007VoicePlatform, m008WorkflowTools, m009Ops, m010LeadSearch, m011LeadSearchFilters, m012LeadSearchCadences, m013LeadSearchWriteBehind, m014NumberPurchases, m015Leases, m016StepStats, m017Replays];
