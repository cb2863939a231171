/** Spec 2.7 and 2.8. */
export const CampaignSystem = {
  type: 'object',
  required: ['id', 'letter', 'name', 'description', 'promptVars', 'metadataVars', 'dynamicVars', 'postCallFields', 'dispositions', 'sideSignals'],
  properties: {
    id: { type: 'string' },
    letter: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    promptVars: { type: 'array', items: { type: 'string' } },
    metadataVars: { type: 'array', items: { type: 'string' } },
    dynamicVars: { type: 'array', items: { type: 'string' } },
    postCallFields: {
      type: 'array',
      items: { type: 'object', required: ['name', 'type'], properties: { name: { type: 'string' }, type: { type: 'string' } } },
    },
    dispositions: { type: 'array', items: { type: 'string' } },
    sideSignals: { type: 'array' },
  },
} as const;

export const CampaignProjectSummary = {
  type: 'object',
  required: ['projectId', 'locationId', 'businessName', 'agencyName', 'campaignCount'],
  properties: {
    projectId: { type: 'string' },
    locationId: { type: 'string' },
    businessName: { type: 'string' },
    agencyName: { type: 'string' },
    campaignCount: { type: 'integer', minimum: 0 },
  },
} as const;

const Template = {
  type: 'object',
  required: ['id', 'name', 'capabilityIds'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, capabilityIds: { type: 'array', items: { type: 'string' } } },
} as const;

/** Spec 4.13: Outreach and Inbound with starting templates; Reminder resolves to one fixed template. */
export const AgentTypeEntry = {
  type: 'object',
  required: ['id', 'name', 'description', 'templates'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, templates: { type: 'array', items: Template }, template: Template },
} as const;

export const SkillEntry = {
  type: 'object',
  required: ['id', 'name', 'description', 'capabilityId', 'installed'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, capabilityId: { type: 'string' }, installed: { type: 'boolean' } },
} as const;
