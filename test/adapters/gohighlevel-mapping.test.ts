import { describe, expect, it } from 'vitest';
import { emailHtml, fieldKeyOf, findField, plainText, slotStarts, toContact, toCustomValues, toFieldValue, toPipelines } from '../../server/adapters/gohighlevel/mapping.js';

describe('GoHighLevel mapping', () => {
  it('field keys: bare, dotted and token forms mean the same contact field', () => {
    expect(['callback_time', 'contact.callback_time', '{{contact.callback_time}}', '{{ contact.callback_time }}'].map(fieldKeyOf)).toEqual(Array(4).fill('callback_time'));
    const fields = [{ id: 'f1', name: 'Callback', fieldKey: 'contact.callback_time', dataType: 'DATE' }];
    expect(findField(fields, '{{contact.callback_time}}')?.id).toBe('f1');
    expect(findField(fields, 'f1')?.id).toBe('f1');
    expect(findField(fields, 'other')).toBeUndefined();
  });

  it('custom values: the vendor token with spaces becomes our fieldKey and placeholder', () => {
    expect(toCustomValues({ customValues: [{ id: 'v1', name: 'Hours', fieldKey: '{{ custom_values.opening_hours }}', value: '9-5' }, { id: 'v2', name: 'Odd One', value: 3 }] })).toEqual([
      { id: 'v1', name: 'Hours', fieldKey: '{{custom_values.opening_hours}}', placeholder: 'custom_values.opening_hours', value: '9-5' },
      { id: 'v2', name: 'Odd One', fieldKey: '{{custom_values.odd_one}}', placeholder: 'custom_values.odd_one', value: '3' },
    ]);
  });

  it('contacts: name falls back to contactName, then first and last; values keyed by our field key', () => {
    const fields = [{ id: 'f1', name: 'Callback', fieldKey: 'contact.callback_time', dataType: 'DATE' }];
    expect(toContact({ id: 'c1', contactName: 'ana lopez', customField: [{ id: 'f1', value: 'x' }] }, fields, 'L1')).toEqual({ id: 'c1', locationId: 'L1', fullName: 'ana lopez', tags: [], fields: { callback_time: 'x' } });
    expect(toContact({ id: 'c2', firstName: 'Ana', lastName: 'Lopez', tags: ['a', 3] }, [], 'L1')).toMatchObject({ fullName: 'Ana Lopez', tags: ['a'] });
    expect(toContact({}, [], 'L1')).toBeNull();
  });

  it('field values: scalars as text, empty for null', () => {
    expect([toFieldValue(7), toFieldValue(true), toFieldValue(null), toFieldValue(['a', 1]), toFieldValue('x')]).toEqual(['7', 'true', '', ['a', '1'], 'x']);
  });

  it('pipelines keep only real stages', () => {
    expect(toPipelines({ pipelines: [{ id: 'p', name: 'Sales', stages: [[], { id: 's1', name: 'New' }, { name: 'no id' }] }, { name: 'no id' }] })).toEqual([{ id: 'p', name: 'Sales', stages: [{ id: 's1', name: 'New' }] }]);
  });

  it('free slots: every start across days, whatever the offset; non-day keys ignored', () => {
    expect(slotStarts({ '2024-10-28': { slots: ['2024-10-28T10:00:00-05:00', 'garbage'] }, '2024-10-29': { slots: ['2024-10-29T15:00:00Z'] }, traceId: 'abc' })).toEqual([
      Date.parse('2024-10-28T15:00:00Z'),
      Date.parse('2024-10-29T15:00:00Z'),
    ]);
  });

  it('email bodies: text is escaped into HTML, authored HTML passes; both compare equal as text', () => {
    expect(emailHtml('a < b & c\nnext')).toBe('a &lt; b &amp; c<br>next');
    expect(emailHtml('<p>Hello</p>')).toBe('<p>Hello</p>');
    expect(plainText(emailHtml('a < b & c\nnext'))).toBe(plainText('a < b & c\nnext'));
  });
});
