import { describe, expect, it } from 'vitest';
import { DIALECTS, unique, useStore, world } from './dialects.js';

describe.each(DIALECTS)('phone numbers, the sandbox stock and purchases on %s', (dialect) => {
  const s = useStore(dialect);

  it('the sandbox stock: 160 numbers, searched by country, toll-free and area code in number order, sold once', async () => {
    const us512 = await s.store.numberInventory.available({ country: 'US', tollFree: false, areaCode: 512, limit: 20 });
    expect(us512.map((n) => n.phoneNumber)).toEqual(Array.from({ length: 10 }, (_, i) => `+1512555${1000 + i * 37}`));
    expect(us512[0]).toEqual({ phoneNumber: '+15125551000', country: 'US', areaCode: 512, tollFree: false });
    expect(await s.store.numberInventory.available({ country: 'CA', tollFree: false, areaCode: null, limit: 100 })).toHaveLength(30);
    expect(await s.store.numberInventory.available({ country: null, tollFree: false, areaCode: null, limit: 1000 })).toHaveLength(120);
    const tollFree = await s.store.numberInventory.available({ country: null, tollFree: true, areaCode: null, limit: 1000 });
    expect(tollFree).toHaveLength(40);
    expect(tollFree[0]).toEqual({ phoneNumber: '+18005552000', country: 'US', areaCode: 800, tollFree: true });
    expect(await s.store.numberInventory.available({ country: 'US', tollFree: false, areaCode: 416, limit: 5 })).toEqual([]);

    const a = unique('ag');
    expect(await s.store.numberInventory.get('+15125551000')).toEqual({ ...us512[0], sold: false });
    expect(await s.store.numberInventory.take(a, '+15125551000')).toBe(true);
    expect(await s.store.numberInventory.take(unique('ag'), '+15125551000')).toBe(false);
    expect(await s.store.numberInventory.take(a, '+19999999999')).toBe(false);
    expect(await s.store.numberInventory.get('+15125551000')).toEqual({ ...us512[0], sold: true });
    expect(await s.store.numberInventory.get('+19999999999')).toBeUndefined();
    expect((await s.store.numberInventory.available({ country: 'US', tollFree: false, areaCode: 512, limit: 1 }))[0]!.phoneNumber).toBe('+15125551037');
  });

  it('owned numbers: inserted, listed, registered (changing only what is named), owned elsewhere', async () => {
    const { agencyId } = await world(s.store);
    const other = await world(s.store);
    const n = await s.store.phoneNumbers.insert(agencyId, '+15125550001', 'Main', true);
    expect(n).toEqual({ phoneNumber: '+15125550001', nickname: 'Main', boundToAgent: true, boughtAt: expect.any(String) });
    expect(await s.store.phoneNumbers.get(agencyId, '+15125550001')).toEqual(n);
    expect(await s.store.phoneNumbers.get(other.agencyId, '+15125550001')).toBeUndefined();
    const registered = await s.store.phoneNumbers.register(agencyId, '+15125550002', { vapiPhoneNumberId: 'vp_1' });
    expect(registered).toMatchObject({ phoneNumber: '+15125550002', nickname: '', boundToAgent: false, vapiPhoneNumberId: 'vp_1' });
    expect(await s.store.phoneNumbers.register(agencyId, '+15125550002', { nickname: 'Side' })).toMatchObject({ nickname: 'Side', vapiPhoneNumberId: 'vp_1' });
    const cleared = await s.store.phoneNumbers.register(agencyId, '+15125550002', { vapiPhoneNumberId: null });
    expect(cleared.nickname).toBe('Side');
    expect(cleared.vapiPhoneNumberId).toBeUndefined();
    expect((await s.store.phoneNumbers.list(agencyId)).map((x) => x.phoneNumber).sort()).toEqual(['+15125550001', '+15125550002']);
    expect(await s.store.phoneNumbers.list(other.agencyId)).toEqual([]);
    expect(await s.store.phoneNumbers.ownedElsewhere(other.agencyId, '+15125550001')).toBe(true);
    expect(await s.store.phoneNumbers.ownedElsewhere(agencyId, '+15125550001')).toBe(false);
    // Sold by the sandbox carrier to another agency counts too.
    expect(await s.store.numberInventory.take(other.agencyId, '+13055551000')).toBe(true);
    expect(await s.store.phoneNumbers.ownedElsewhere(agencyId, '+13055551000')).toBe(true);
    expect(await s.store.phoneNumbers.ownedElsewhere(other.agencyId, '+13055551000')).toBe(false);
  });

  it('a purchase at a real carrier moves buying -> bought -> importing -> imported -> done, storing the number on the way', async () => {
    const { agencyId, campaign } = await world(s.store);
    const key = unique('key');
    const p = await s.store.numberPurchases.begin({ agencyId, key, request: '{"a":1}', campaignId: campaign.id, phoneNumber: '+14155550100' });
    expect(p).toMatchObject({ agencyId, key, request: '{"a":1}', campaignId: campaign.id, phoneNumber: '+14155550100', state: 'buying', twilioSid: null, vapiPhoneNumberId: null, attempts: 1 });
    await expect(s.store.numberPurchases.begin({ agencyId, key, request: '{}', campaignId: campaign.id, phoneNumber: '+1' })).rejects.toThrow();
    expect(await s.store.numberPurchases.resumed(agencyId, key)).toMatchObject({ attempts: 2 });
    const bought = await s.store.numberPurchases.bought({ agencyId, key, phoneNumber: '+14155550101', twilioSid: 'PN1', nickname: 'Twilio line' });
    expect(bought).toMatchObject({ state: 'bought', phoneNumber: '+14155550101', twilioSid: 'PN1' });
    expect(await s.store.phoneNumbers.get(agencyId, '+14155550101')).toMatchObject({ nickname: 'Twilio line', twilioSid: 'PN1' });
    expect(await s.store.numberPurchases.importing(agencyId, key)).toMatchObject({ state: 'importing' });
    expect(await s.store.numberPurchases.importRefused(agencyId, key)).toMatchObject({ state: 'bought' });
    await s.store.numberPurchases.importing(agencyId, key);
    expect(await s.store.numberPurchases.imported({ agencyId, key, phoneNumber: '+14155550101', vapiId: 'vp_9' })).toMatchObject({ state: 'imported', vapiPhoneNumberId: 'vp_9' });
    expect(await s.store.phoneNumbers.get(agencyId, '+14155550101')).toMatchObject({ vapiPhoneNumberId: 'vp_9', twilioSid: 'PN1' });
    // A step from the wrong state changes nothing.
    expect(await s.store.numberPurchases.done(agencyId, key, 'bought')).toMatchObject({ state: 'imported' });
    expect(await s.store.numberPurchases.done(agencyId, key, 'imported')).toMatchObject({ state: 'done' });
    expect(await s.store.numberPurchases.get(agencyId, key)).toMatchObject({ state: 'done' });
    expect(await s.store.numberPurchases.get(unique('ag'), key)).toBeUndefined();
  });

  it('a purchase still buying can be abandoned (the key is free again); a bought one cannot', async () => {
    const { agencyId, campaign } = await world(s.store);
    const key = unique('key');
    await s.store.numberPurchases.begin({ agencyId, key, request: '{}', campaignId: campaign.id, phoneNumber: '+14155550200' });
    await s.store.numberPurchases.abandon(agencyId, key);
    expect(await s.store.numberPurchases.get(agencyId, key)).toBeUndefined();
    await s.store.numberPurchases.begin({ agencyId, key, request: '{}', campaignId: campaign.id, phoneNumber: '+14155550200' });
    await s.store.numberPurchases.bought({ agencyId, key, phoneNumber: '+14155550200', twilioSid: 'PN2', nickname: 'n' });
    await s.store.numberPurchases.abandon(agencyId, key);
    expect(await s.store.numberPurchases.get(agencyId, key)).toMatchObject({ state: 'bought' });
  });
});
