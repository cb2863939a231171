/**
 * Seeded reference data: the campaign systems (legacy templates, spec 4.3), the agent types and
 * their starting capabilities (4.13), and the skills library. Data, not code paths.
 */
export const CAMPAIGN_SYSTEMS = [
  {
    id: 'appointment_confirmation', letter: 'A', name: 'Appointment Confirmation',
    description: 'Calls contacts ahead of an appointment to confirm, cancel or reschedule it.',
    promptVars: ['business_name', 'appointment_time'], metadataVars: ['contact_id', 'appointment_id'], dynamicVars: ['first_name'],
    postCallFields: [{ name: 'confirmed', type: 'boolean' }, { name: 'appointment_time', type: 'datetime' }],
    dispositions: ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'RESCHEDULE'], sideSignals: [],
  },
  {
    id: 'appointment_booking', letter: 'B', name: 'Appointment Booking',
    description: 'Calls new leads and books them into the calendar.',
    promptVars: ['business_name', 'calendar_name'], metadataVars: ['contact_id'], dynamicVars: ['first_name'],
    postCallFields: [{ name: 'appointment_time', type: 'datetime' }, { name: 'callback_time', type: 'datetime' }],
    dispositions: ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'RESCHEDULE'], sideSignals: ['appointment_booked'],
  },
  {
    id: 'live_transfer', letter: 'T', name: 'Live Transfer',
    description: 'Qualifies the contact and transfers the call to a person.',
    promptVars: ['business_name', 'transfer_number'], metadataVars: ['contact_id'], dynamicVars: ['first_name'],
    postCallFields: [{ name: 'transferred', type: 'boolean' }],
    dispositions: ['VOICEMAIL', 'CALLBACK', 'NO_ACTION', 'TRANSFER'], sideSignals: ['transfer_started'],
  },
  {
    id: 'live_transfer_and_tag', letter: 'U', name: 'Live Transfer and Tag',
    description: 'Transfers interested contacts and tags the others.',
    promptVars: ['business_name', 'transfer_number'], metadataVars: ['contact_id'], dynamicVars: ['first_name'],
    postCallFields: [{ name: 'transferred', type: 'boolean' }, { name: 'interest', type: 'text' }],
    dispositions: ['VOICEMAIL', 'CALLBACK', 'NO_ACTION', 'TRANSFER'], sideSignals: ['transfer_started'],
  },
  {
    id: 'live_transfer_and_booking', letter: 'V', name: 'Live Transfer and Booking',
    description: 'Transfers when a person is free, books an appointment otherwise.',
    promptVars: ['business_name', 'transfer_number', 'calendar_name'], metadataVars: ['contact_id'], dynamicVars: ['first_name'],
    postCallFields: [{ name: 'appointment_time', type: 'datetime' }, { name: 'transferred', type: 'boolean' }],
    dispositions: ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'TRANSFER', 'RESCHEDULE'], sideSignals: ['transfer_started', 'appointment_booked'],
  },
  {
    id: 'add_tag', letter: 'G', name: 'Add Tag',
    description: 'Asks a question and tags the contact by the answer.',
    promptVars: ['business_name', 'question'], metadataVars: ['contact_id'], dynamicVars: ['first_name'],
    postCallFields: [{ name: 'answer', type: 'text' }],
    dispositions: ['VOICEMAIL', 'CALLBACK', 'NO_ACTION'], sideSignals: [],
  },
  {
    id: 'inbound_receptionist', letter: 'R', name: 'Inbound Receptionist',
    description: 'Answers inbound calls and takes messages (a receptionist that books is the Appointment Booking system).',
    promptVars: ['business_name', 'opening_hours'], metadataVars: ['caller_number'], dynamicVars: [],
    postCallFields: [{ name: 'message', type: 'text' }],
    dispositions: ['VOICEMAIL', 'CALLBACK', 'NO_ACTION'], sideSignals: [],
  },
] as const;

export const AGENT_TYPE_CATALOG = [
  {
    id: 'outreach', name: 'Outreach', description: 'Outbound calls to leads from a campaign queue.',
    templates: [
      { id: 'appointment_booking', name: 'Appointment Booking', capabilityIds: ['appointment_booking'] },
      { id: 'live_transfer', name: 'Live Transfer', capabilityIds: ['live_transfer'] },
      { id: 'add_tag', name: 'Add Tag', capabilityIds: ['add_tag'] },
      { id: 'live_transfer_and_booking', name: 'Live Transfer and Booking', capabilityIds: ['live_transfer', 'appointment_booking'] },
    ],
  },
  {
    id: 'inbound', name: 'Inbound', description: 'Answers calls to the project\'s numbers.',
    templates: [
      { id: 'inbound_receptionist', name: 'Receptionist', capabilityIds: [] },
      { id: 'appointment_booking', name: 'Receptionist with booking', capabilityIds: ['appointment_booking'] },
    ],
  },
  {
    id: 'appointment', name: 'Reminder', description: 'Confirms upcoming appointments.',
    template: { id: 'appointment_confirmation', name: 'Appointment Confirmation', capabilityIds: ['appointment_booking'] },
    templates: [{ id: 'appointment_confirmation', name: 'Appointment Confirmation', capabilityIds: ['appointment_booking'] }],
  },
] as const;

export const SKILL_TYPES = [
  { id: 'appointment_booking', name: 'Appointment Booking', description: 'Checks calendar availability and books a slot during the call.', capabilityId: 'appointment_booking' },
  { id: 'live_transfer', name: 'Live Transfer', description: 'Transfers the call to a person by the transfer routes.', capabilityId: 'live_transfer' },
  { id: 'add_tag', name: 'Add Tag', description: 'Tags the contact in the CRM from what was said.', capabilityId: 'add_tag' },
] as const;

/** The templates an agent type offers (Reminder: its single fixed one). */
export function templatesOf(agentType: string): readonly { id: string; name: string; capabilityIds: readonly string[] }[] {
  return AGENT_TYPE_CATALOG.find((t) => t.id === agentType)?.templates ?? [];
}

/**
 * Spec 4.13: a Reminder (`appointment`) agent resolves to its single fixed template, so it has that
 * template's capabilities; null for the types whose capabilities are chosen freely.
 */
export function fixedTemplateOf(agentType: string): { id: string; capabilityIds: readonly string[] } | null {
  const entry = AGENT_TYPE_CATALOG.find((t) => t.id === agentType);
  return entry && 'template' in entry ? entry.template : null;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * The legacy template id (spec 2.3, 2.11) of an agent's campaign: the clone source. An agent whose
 * capabilities are exactly one of its type's templates was cloned from that template (so
 * `live_transfer` + `appointment_booking` is `live_transfer_and_booking`, whose system lists every
 * outcome the agent can emit); any other set reflects only its first capability, as the spec says.
 */
export function legacyAgentType(agentType: string, capabilities: readonly string[]): string {
  const template = templatesOf(agentType).find((t) => sameSet(t.capabilityIds, capabilities));
  if (template) return template.id;
  const first = capabilities[0];
  if (agentType === 'inbound') return 'inbound_receptionist';
  if (agentType === 'appointment') return 'appointment_confirmation';
  if (first === 'appointment_booking') return 'appointment_booking';
  if (first === 'live_transfer') return 'live_transfer';
  return 'add_tag';
}
