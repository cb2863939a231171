import { IANAZone } from 'luxon';

/**
 * The IANA time zone names the API accepts, stated as an enum in the document so a client knows
 * the rule: the zones of this Node's ICU (its canonical names, e.g. `Asia/Calcutta`), the current
 * IANA names ICU keeps only as links (e.g. `Asia/Kolkata`), and `UTC`. Aliases such as
 * `US/Eastern` and names in another letter case are refused: send the canonical name.
 */
const CURRENT_NAMES = [
  'UTC', 'Etc/UTC', 'Etc/GMT', 'Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Ho_Chi_Minh', 'Asia/Yangon', 'Europe/Kyiv',
  'America/Nuuk', 'Pacific/Kanton', 'Atlantic/Faroe', 'America/Argentina/Buenos_Aires', 'America/Indiana/Indianapolis',
  'America/Kentucky/Louisville', 'Pacific/Chuuk', 'Pacific/Pohnpei', 'Africa/Asmara', 'Asia/Dhaka', 'Asia/Thimphu', 'America/Atikokan',
];

export const TIME_ZONES: readonly string[] = [...new Set([...Intl.supportedValuesOf('timeZone'), ...CURRENT_NAMES])]
  .filter((z) => IANAZone.isValidZone(z))
  .sort();

export const TimeZone = {
  type: 'string',
  enum: TIME_ZONES,
  description: 'an IANA time zone name, e.g. America/Chicago',
  'x-error': '{at} "{value}" is not an IANA time zone name (e.g. America/Chicago); the API description lists every accepted name',
} as const;
