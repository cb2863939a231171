/**
 * The registry: for every step type its title, icon, palette group, the config a new step gets
 * (`{}`, a draft), the config its form starts from, and its one-line summary. Canvas nodes, the
 * palette, the add menu and the side panel all read from here.
 */
import { describeConditions } from '../../../engine/graph/conditions';
import { NODE_TYPES } from '../../../schemas/workflow';
import type { IconName } from '../components/Icon';
import type { Condition, DraftConfig, NodeConfigs, NodeType, SwitchCase } from '../model/types';
import { isDraft } from '../model/types';

type Loose<C> = { [K in keyof C]?: C[K] };

export interface NodeSpec<T extends NodeType> {
  type: T;
  title: string;
  group: 'Contact' | 'Messages' | 'Calendar' | 'Branches';
  description: string;
  icon: IconName;
  accent: string;
  /** what a new step is created with: `{}`, an unfinished draft (saved, skipped at run time) */
  defaultConfig: () => NodeConfigs[T] | DraftConfig;
  /** what the form starts from when the step is still a draft */
  seed: () => Loose<NodeConfigs[T]>;
  /** one line for the canvas */
  summary: (config: Loose<NodeConfigs[T]>) => string;
}

const draft = (): DraftConfig => ({});
const clip = (s: unknown, n = 80) => {
  const t = String(s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

export const NODE_SPECS: { [T in NodeType]: NodeSpec<T> } = {
  'add-tag': {
    type: 'add-tag', title: 'Add tag', group: 'Contact', icon: 'tag', accent: '#0d9488',
    description: 'Add tags to the contact',
    defaultConfig: draft, seed: () => ({ tags: [] as unknown as NodeConfigs['add-tag']['tags'] }),
    summary: (c) => `+ ${(c.tags ?? []).join(', ')}`,
  },
  'remove-tag': {
    type: 'remove-tag', title: 'Remove tag', group: 'Contact', icon: 'tagOff', accent: '#0d9488',
    description: 'Remove tags from the contact',
    defaultConfig: draft, seed: () => ({ tags: [] as unknown as NodeConfigs['remove-tag']['tags'] }),
    summary: (c) => `− ${(c.tags ?? []).join(', ')}`,
  },
  'set-field': {
    type: 'set-field', title: 'Set field', group: 'Contact', icon: 'pencil', accent: '#0d9488',
    description: 'Write a value into a contact field',
    defaultConfig: draft, seed: () => ({ field: '', value: '' }),
    summary: (c) => `${c.field ?? '?'} = ${clip(c.value, 48)}`,
  },
  'move-stage': {
    type: 'move-stage', title: 'Move stage', group: 'Contact', icon: 'stage', accent: '#0d9488',
    description: "Move the contact's opportunity to a pipeline stage",
    defaultConfig: draft, seed: () => ({ pipelineId: '', stageId: '' }),
    summary: (c) => `→ ${c.stageId ?? '?'} (pipeline ${c.pipelineId ?? '?'})`,
  },
  'add-note': {
    type: 'add-note', title: 'Add note', group: 'Contact', icon: 'note', accent: '#0d9488',
    description: 'Write a note on the contact',
    defaultConfig: draft, seed: () => ({ body: '' }),
    summary: (c) => clip(c.body),
  },
  'send-sms': {
    type: 'send-sms', title: 'Send SMS', group: 'Messages', icon: 'sms', accent: '#2563eb',
    description: 'Text the contact',
    defaultConfig: draft, seed: () => ({ body: '' }),
    summary: (c) => clip(c.body),
  },
  'send-email': {
    type: 'send-email', title: 'Send email', group: 'Messages', icon: 'mail', accent: '#2563eb',
    description: 'Email the contact',
    defaultConfig: draft, seed: () => ({ subject: '', body: '' }),
    summary: (c) => clip(c.subject),
  },
  'book-appointment': {
    type: 'book-appointment', title: 'Book appointment', group: 'Calendar', icon: 'calendar', accent: '#9333ea',
    description: 'Book the slot the call agreed on',
    // An empty book-appointment config is complete (every field optional), but {} would read as a draft.
    defaultConfig: draft, seed: () => ({ startField: 'appointment_time', durationMinutes: 30 }),
    summary: (c) => `from call field ${c.startField ?? 'appointment_time'}, ${c.durationMinutes ?? 30} min`,
  },
  if: {
    type: 'if', title: 'If / else', group: 'Branches', icon: 'branch', accent: '#d97706',
    description: 'Two ways: conditions true or false',
    defaultConfig: draft,
    seed: () => ({ match: 'all', conditions: [{ field: '', op: 'exists' }] as unknown as NodeConfigs['if']['conditions'] }),
    summary: (c) => `if ${describeConditions(c.match, (c.conditions ?? []) as Condition[])}`,
  },
  switch: {
    type: 'switch', title: 'Router', group: 'Branches', icon: 'switch', accent: '#d97706',
    description: 'Several cases, first match wins',
    defaultConfig: draft,
    seed: () => ({ cases: [{ id: 'case-1', label: 'Case 1', match: 'all', conditions: [{ field: '', op: 'eq', value: '' }] }] as unknown as NodeConfigs['switch']['cases'] }),
    summary: (c) => {
      const cases = (c.cases ?? []) as SwitchCase[];
      return `${cases.length} case${cases.length === 1 ? '' : 's'}: ${cases.map((x) => x.label).join(', ')}`;
    },
  },
};

export const STEP_TYPES: readonly NodeType[] = NODE_TYPES;

export function specOf<T extends NodeType>(type: T): NodeSpec<T> {
  return NODE_SPECS[type] as NodeSpec<T>;
}

/** The canvas line for a step: its summary, or that it is a draft. */
export function summaryOf(type: NodeType, config: unknown): string {
  if (isDraft(config)) return 'Not configured yet (draft, skipped)';
  try {
    return (specOf(type).summary as (c: unknown) => string)(config);
  } catch {
    return '';
  }
}

export const PALETTE_GROUPS = ['Contact', 'Messages', 'Calendar', 'Branches'] as const;
