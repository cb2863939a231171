import { appendNodes, type AppendNode } from '../engine/graph/append.js';
import { emptyGraph } from '../engine/graph/empty.js';
import type { Disposition } from '../engine/graph/outcomes.js';
import type { Graph } from '../engine/graph/types.js';
import { CAMPAIGN_SYSTEMS } from './catalog.js';

/**
 * Starter workflows: a ready chain per outcome for each campaign system (spec 2.7), so a new agent
 * or campaign starts from something sensible instead of an empty canvas. Data, built through the
 * engine's own append, so every template is a graph the API itself would store; only the outcomes
 * the agent can emit are applied.
 */
export interface WorkflowTemplate {
  id: string;
  name: string;
  description: string;
  /** the campaign system it is made for (CAMPAIGN_SYSTEMS ids) */
  system: string;
  chains: Partial<Record<Disposition, AppendNode[]>>;
}

const tag = (...tags: string[]): AppendNode => ({ type: 'add-tag', config: { tags } });
const note = (body: string): AppendNode => ({ type: 'add-note', config: { body } });
const sms = (body: string): AppendNode => ({ type: 'send-sms', config: { body } });

/** Call Back: store the time the contact gave, or mark that none was given. */
const callbackSchedules: AppendNode = {
  type: 'switch',
  label: 'Callback time given?',
  config: {
    cases: [
      {
        label: 'Time given',
        match: 'all',
        conditions: [{ field: 'call.fields.callback_time', op: 'exists' }],
        nodes: [{ type: 'set-field', config: { field: 'contact.callback_time', value: '{{call.fields.callback_time}}' } }, tag('callback-scheduled')],
      },
    ],
    default: { nodes: [tag('callback-unscheduled')] },
  },
} as AppendNode;

const voicemailTextsBack = [sms('Hi {{contact.firstName}}, this is {{custom_values.business_name}}. Sorry we missed you! Reply here or call us back.'), tag('vm-left')];

export const WORKFLOW_TEMPLATES: readonly WorkflowTemplate[] = [
  {
    id: 'appointment-booking',
    name: 'Appointment booking',
    description: 'Success books the appointment the contact chose, tags and notes it; Voicemail texts back; Call Back schedules the callback.',
    system: 'appointment_booking',
    chains: {
      SUCCESS: [{ type: 'book-appointment', config: { startField: 'appointment_time', durationMinutes: 30 } }, tag('appointment-booked'), note('Booked by the voice agent: {{call.callSummary}}')],
      VOICEMAIL: voicemailTextsBack,
      CALLBACK: [callbackSchedules],
      NO_ACTION: [tag('not-interested')],
      RESCHEDULE: [note('Asked to reschedule: {{call.callSummary}}'), tag('reschedule')],
    },
  },
  {
    id: 'appointment-confirmation',
    name: 'Appointment confirmation',
    description: 'Success confirms and notes it; Reschedule flags the appointment; Voicemail texts a reminder.',
    system: 'appointment_confirmation',
    chains: {
      SUCCESS: [tag('appointment-confirmed'), note('Confirmed by phone: {{call.callSummary}}')],
      RESCHEDULE: [tag('reschedule'), note('Wants another time: {{call.callSummary}}')],
      VOICEMAIL: [sms('Hi {{contact.firstName}}, a reminder of your appointment with {{custom_values.business_name}}. Reply C to confirm or call us to change it.'), tag('vm-left')],
      CALLBACK: [callbackSchedules],
      NO_ACTION: [tag('unconfirmed')],
    },
  },
  {
    id: 'live-transfer',
    name: 'Live transfer',
    description: 'Transfer tags and notes the hand-off; Voicemail texts back; Call Back schedules.',
    system: 'live_transfer',
    chains: { TRANSFER: [tag('transferred'), note('Transferred to the team: {{call.callSummary}}')], VOICEMAIL: voicemailTextsBack, CALLBACK: [callbackSchedules], NO_ACTION: [tag('not-interested')] },
  },
  {
    id: 'live-transfer-and-tag',
    name: 'Live transfer and tag',
    description: 'Transfer tags the hand-off; No Action tags the contact with the answer recorded; Voicemail texts back.',
    system: 'live_transfer_and_tag',
    chains: { TRANSFER: [tag('transferred')], NO_ACTION: [tag('not-interested'), note('Interest: {{call.fields.interest}}')], VOICEMAIL: voicemailTextsBack, CALLBACK: [callbackSchedules] },
  },
  {
    id: 'live-transfer-and-booking',
    name: 'Live transfer and booking',
    description: 'Transfer tags the hand-off; Success books; Voicemail texts back; Call Back schedules.',
    system: 'live_transfer_and_booking',
    chains: {
      TRANSFER: [tag('transferred')],
      SUCCESS: [{ type: 'book-appointment', config: { startField: 'appointment_time', durationMinutes: 30 } }, tag('appointment-booked')],
      VOICEMAIL: voicemailTextsBack,
      CALLBACK: [callbackSchedules],
      NO_ACTION: [tag('not-interested')],
      RESCHEDULE: [tag('reschedule')],
    },
  },
  {
    id: 'add-tag',
    name: 'Tag by answer',
    description: "Notes the contact's answer on every reached call; Voicemail texts back.",
    system: 'add_tag',
    chains: { NO_ACTION: [note('Answer: {{call.fields.answer}}'), tag('answered')], VOICEMAIL: voicemailTextsBack, CALLBACK: [callbackSchedules] },
  },
  {
    id: 'inbound-receptionist',
    name: 'Inbound receptionist',
    description: 'Every message taken becomes a note; Call Back schedules.',
    system: 'inbound_receptionist',
    chains: { NO_ACTION: [note('Message taken: {{call.fields.message}}')], VOICEMAIL: [note('Voicemail: {{call.callSummary}}')], CALLBACK: [callbackSchedules] },
  },
];

export function findTemplate(id: string): WorkflowTemplate | undefined {
  return WORKFLOW_TEMPLATES.find((t) => t.id === id);
}

/** The template's graph for an agent that can emit `emittable`: chains of other outcomes are left out. */
export function templateGraph(t: WorkflowTemplate, emittable: readonly Disposition[]): Graph {
  let g = emptyGraph();
  for (const [outcome, nodes] of Object.entries(t.chains) as [Disposition, AppendNode[]][]) {
    if (emittable.includes(outcome)) g = appendNodes(g, outcome, nodes);
  }
  return g;
}

/** The outcomes a template acts on that its system can emit (a sanity check the tests hold every template to). */
export const systemOf = (t: WorkflowTemplate) => CAMPAIGN_SYSTEMS.find((s) => s.id === t.system);
