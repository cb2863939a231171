/** Spec 2.9. */
export const CustomValue = {
  type: 'object',
  required: ['id', 'name', 'fieldKey', 'placeholder', 'value'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, fieldKey: { type: 'string' }, placeholder: { type: 'string' }, value: { type: 'string' } },
} as const;

export const CustomField = {
  type: 'object',
  required: ['id', 'name', 'fieldKey', 'placeholder', 'dataType'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, fieldKey: { type: 'string' }, placeholder: { type: 'string' }, dataType: { type: 'string' } },
} as const;

/** A pipeline of the project's CRM location with its stages (the editor's move-stage picker). */
export const Pipeline = {
  type: 'object',
  required: ['id', 'name', 'stages'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    stages: { type: 'array', items: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } } },
  },
} as const;

/** A calendar of the project's CRM location (the editor's book-appointment picker). */
export const CrmCalendar = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'string' }, name: { type: 'string' } },
} as const;
