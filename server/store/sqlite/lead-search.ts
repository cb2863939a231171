import type { Db } from './db.js';

/**
 * The words of the lead-search index (migration 010): a substring search over a whole lead list
 * at 1M leads answered from an FTS5 index instead of a scan of the step.
 *
 * Each lead still being worked is one FTS5 document whose words are the trigrams of its `search`
 * text, in order, each prefixed with the list it is in: its agency (by number), the list (`p`: the cadence
 * step list of spec 4.7, `w`: the parked list of 4.8) and, for `p`, its step. So
 * - a search is the phrase of the query's trigrams: consecutive positions are consecutive
 *   trigrams, so the phrase matches exactly when `instr(search, query) > 0`, with no row to read;
 * - a trigram's doclist holds only the leads of one agency's list at one step, so counting a
 *   search reads what that list holds, not every lead of every agency with the same surname.
 * The words are alphanumeric ASCII so the `ascii` tokenizer keeps each one whole, and short: the
 * index holds one position per character of every listed lead's text.
 *
 * Since migration 011 a document also ends with words naming the lead's campaign and project, and
 * since 012 its cadence (a lead on the default one-step cadence has none), under the same list
 * prefix: a search of some campaigns (or projects, or a cadence) is the phrase AND any of their
 * words, so FTS5 intersects the doclists instead of the list walking each campaign's (or
 * project's, or cadence's) leads testing their text.
 */

/** The statuses each list shows: `p` the cadence-step list (spec 4.7), `w` the parked list (4.8). */
export const LIST_STATUSES = { p: ['scheduled', 'calling', 'callback'], w: ['waiting_for_window'] } as const;
export type LeadList = keyof typeof LIST_STATUSES;
/** The list a page of each mode reads. */
export const LIST_OF_MODE = { pipeline: 'p', parked: 'w' } as const satisfies Record<string, LeadList>;

/**
 * `call_status` restricted to a list's statuses, in SQL, written exactly as the WHERE of the
 * list's partial indexes (migration 003): SQLite uses a partial index only when the query repeats
 * its condition.
 */
export function listStatusSql(list: LeadList, status = 'call_status'): string {
  const statuses = LIST_STATUSES[list];
  return statuses.length === 1 ? `${status} = '${statuses[0]}'` : `${status} IN (${statuses.map((x) => `'${x}'`).join(',')})`;
}

/** The list a lead with this status is shown in; null: in none (finished leads). */
function leadListOf(callStatus: string): LeadList | null {
  for (const list of Object.keys(LIST_STATUSES) as LeadList[]) if ((LIST_STATUSES[list] as readonly string[]).includes(callStatus)) return list;
  return null;
}

/**
 * A trigram as word characters, prefix-free: lowercase letters a-y and digits stand for themselves,
 * any other code point (and z) is `z` and its code in four base-36 digits.
 */
const encodeChar = (c: string) => {
  const code = c.codePointAt(0)!;
  return (code >= 0x61 && code <= 0x79) || (code >= 0x30 && code <= 0x39) ? c : `z${code.toString(36).padStart(4, '0')}`;
};
const encode = (codePoints: readonly string[]) => codePoints.map(encodeChar).join('');

/**
 * The prefix of every word of one list: the agency's number (the rowid of its `agencies` row,
 * decimal), the list letter, the step (decimal, `p` only), then the word's kind: `x` a trigram,
 * `k` a campaign, `j` a project, `c` a cadence; letters end each number, so no two lists share a
 * prefix and no two kinds share a word.
 */
type WordKind = 'x' | IdKind;
type IdKind = 'k' | 'j' | 'c';
function listPrefix(agencyNo: number, list: LeadList, step: number, kind: WordKind = 'x'): string {
  return `${agencyNo}${list}${list === 'p' ? step : ''}${kind}`;
}

/**
 * A campaign's (`k`), project's (`j`) or cadence's (`c`) word in one list: its id, every character
 * encoded as a trigram's are, so ids that differ only in case stay apart (the tokenizer folds case).
 */
const idWord = (kind: IdKind, agencyNo: number, list: LeadList, step: number, id: string) => listPrefix(agencyNo, list, step, kind) + encode(Array.from(id));

function trigramWords(prefix: string, text: string): string[] {
  // Each code point encoded once (every enrolment writes a document of ~60 trigrams).
  const chars = Array.from(text, encodeChar);
  const words: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) words.push(prefix + chars[i] + chars[i + 1] + chars[i + 2]);
  return words;
}

/** What a document names besides its text: campaign and project (migration 011 on), cadence (012 on). */
export interface LeadTags {
  campaignId: string;
  projectId: string;
  /** absent: no cadence word (a document before 012, or a lead on the default one-step cadence) */
  cadenceId?: string;
}

/**
 * A lead's document in the index: its trigrams, then its campaign's, project's and cadence's words
 * when given (migrations 011 and 012); null when it is in no list, or its text is shorter than a
 * trigram (no search of the index can match it then).
 */
export function leadSearchWords(agencyNo: number, callStatus: string, cadenceStep: number, search: string, tags?: LeadTags): string | null {
  const list = leadListOf(callStatus);
  if (list === null) return null;
  const words = trigramWords(listPrefix(agencyNo, list, cadenceStep), search);
  if (words.length === 0) return null;
  if (tags) words.push(idWord('k', agencyNo, list, cadenceStep, tags.campaignId), idWord('j', agencyNo, list, cadenceStep, tags.projectId));
  if (tags?.cadenceId) words.push(idWord('c', agencyNo, list, cadenceStep, tags.cadenceId));
  return words.join(' ');
}

/** Shortest search the index answers; shorter ones (one or two characters) scan the list. */
const MIN_INDEXED_SEARCH = 3;

/**
 * The FTS5 query for a search of one list: the phrase of its trigrams, AND any of `campaignIds`'
 * words, AND any of `projectIds`', AND any of `cadenceIds`' (each filter given: at least one id);
 * null when the search is too short for the index.
 */
export function leadSearchPhrase(
  agencyNo: number,
  list: LeadList,
  step: number,
  search: string,
  filters: { campaignIds?: readonly string[]; projectIds?: readonly string[]; cadenceIds?: readonly string[] } = {},
): string | null {
  if (Array.from(search).length < MIN_INDEXED_SEARCH) return null;
  const any = (kind: IdKind, ids: readonly string[]) => ` AND (${ids.map((id) => `"${idWord(kind, agencyNo, list, step, id)}"`).join(' OR ')})`;
  return (
    `"${trigramWords(listPrefix(agencyNo, list, step), search).join(' ')}"` +
    (filters.campaignIds ? any('k', filters.campaignIds) : '') +
    (filters.projectIds ? any('j', filters.projectIds) : '') +
    (filters.cadenceIds ? any('c', filters.cadenceIds) : '')
  );
}

/**
 * Registers `lead_search_words(agency_no, call_status, cadence_step, search[, campaign_id,
 * project_id[, cadence_id]])` on a connection: the triggers call it (with the campaign and project
 * since migration 011, the cadence since 012), so every connection that writes leads needs it
 * (openDb registers it before migrating).
 */
export function registerLeadSearch(db: Db): void {
  db.function('lead_search_words', { deterministic: true, varargs: true }, (agencyNo, callStatus, cadenceStep, search, campaignId, projectId, cadenceId) =>
    leadSearchWords(
      Number(agencyNo),
      String(callStatus),
      Number(cadenceStep),
      String(search),
      campaignId === undefined ? undefined : { campaignId: String(campaignId), projectId: String(projectId), ...(cadenceId != null && { cadenceId: String(cadenceId) }) },
    ),
  );
}
