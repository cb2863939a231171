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
