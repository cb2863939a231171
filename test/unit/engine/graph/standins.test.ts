import { describe, expect, it } from 'vitest';
import { findStandIns, isReservedHost, standInReason } from '../../../../engine/graph/standins.js';

describe('isReservedHost (RFC 2606 / 6761)', () => {
  it.each(['example.com', 'EXAMPLE.COM', 'www.example.com', 'a.b.example.net', 'example.org', 'shop.example', 'api.test', 'foo.invalid', 'app.localhost', 'localhost', 'example.com.'])(
    '%s is reserved',
    (h) => expect(isReservedHost(h)).toBe(true),
  );
  it.each(['example.co', 'myexample.com', 'example.com.au', 'examples.org', 'testing.io', 'brightsmile.dental', 'test.com', ''])('%s is not reserved', (h) =>
    expect(isReservedHost(h)).toBe(false),
  );
});

describe('findStandIns', () => {
  it('finds REPLACE-WITH- at the start of a value, in any case', () => {
    expect(findStandIns({ body: 'REPLACE-WITH-NAME' })).toEqual([
      expect.objectContaining({ path: 'config.body', kind: 'replace-with', reason: 'unreplaced stand-in "REPLACE-WITH-NAME"' }),
    ]);
    expect(findStandIns({ body: '  replace-with-clinic' })[0]?.kind).toBe('replace-with');
  });
  it('does not flag REPLACE-WITH- in the middle of text', () => {
    expect(findStandIns({ body: 'please do not REPLACE-WITH-anything' })).toEqual([]);
  });
  it('finds CHANGE-ME anywhere in a value', () => {
    expect(findStandIns({ subject: 'Hello CHANGE-ME team' })).toEqual([expect.objectContaining({ path: 'config.subject', kind: 'change-me' })]);
  });
  it('finds URLs on reserved documentation hosts, with the host', () => {
    const [hit] = findStandIns({ body: 'Book here: https://www.example.com/book?x=1 thanks' });
    expect(hit).toMatchObject({ path: 'config.body', kind: 'reserved-host', host: 'www.example.com' });
    expect(hit?.reason).toBe('unreplaced stand-in "https://www.example.com/book?x=1" (URL on the reserved documentation host www.example.com)');
    expect(findStandIns({ body: 'http://user:pw@api.test:8080/x' })[0]?.host).toBe('api.test');
    expect(findStandIns({ to: 'mailto:someone@example.org' })[0]?.host).toBe('example.org');
  });
  it('finds bare hosts of reserved documentation domains, as URLs are (issue 15)', () => {
    for (const [body, host] of [
      ['Book at www.example.com/book today', 'www.example.com'],
      ['Portal: clinic.example', 'clinic.example'],
      ['see api.test.', 'api.test'],
      ['(booking.invalid/x?y=1)', 'booking.invalid'],
      ['example.org', 'example.org'],
      ['go to www.example.com:8443/x', 'www.example.com'],
    ] as const) {
      const [hit] = findStandIns({ body });
      expect(hit, body).toMatchObject({ kind: 'reserved-host', host });
      expect(hit!.reason).toContain('reserved documentation domain');
    }
    expect(findStandIns({ body: 'Book at www.example.com/book' })[0]!.reason).toBe(
      'unreplaced stand-in "www.example.com/book" (host on the reserved documentation domain www.example.com)',
    );
  });
  it('leaves real bare hosts, run-context paths, versions and file names alone', () => {
    for (const body of ['www.example.com.au/book', 'brightsmile.dental/book', 'v1.2.3', 'report.pdf', 'call.fields.test', 'contact.invalid', '{{call.fields.test}}', 'owner@clinic.test', 'mytest', 'ask.testing.io']) {
      expect(findStandIns({ body }), body).toEqual([]);
    }
    expect(findStandIns({ conditions: [{ field: 'call.fields.test', op: 'exists' }] })).toEqual([]);
  });
  it('leaves real URLs, template tokens and bare e-mail addresses alone', () => {
    expect(
      findStandIns({ body: 'See https://brightsmile.dental/book or {{custom_values.booking_url}}', to: 'owner@example.com', n: 3, ok: true, none: null }),
    ).toEqual([]);
  });
  it('searches deeply: strings inside arrays and nested objects, with paths', () => {
    const hits = findStandIns({ tags: ['ok', 'REPLACE-WITH-TAG'], cases: [{ conditions: [{ field: 'contact.x', op: 'eq', value: 'CHANGE-ME' }] }], 'odd key': 'REPLACE-WITH-X' });
    expect(hits.map((h) => h.path)).toEqual(['config.tags[1]', 'config.cases[0].conditions[0].value', 'config["odd key"]']);
  });
  it('uses the given base path', () => {
    expect(findStandIns(['REPLACE-WITH-A'], 'nodes[0].config.tags')[0]?.path).toBe('nodes[0].config.tags[0]');
  });
  it('standInReason gives the words or null', () => {
    expect(standInReason('CHANGE-ME')).toMatch(/unreplaced stand-in/);
    expect(standInReason('fine')).toBeNull();
  });
});
