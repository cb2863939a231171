import type { CampaignRecord, OwnedNumber, ReadOptions, Store } from '../../store/index.js';
import type { Services } from '../../services.js';
import { assertProjectAccess, type Actor } from '../actor.js';
import { conflict, notFound } from '../errors.js';
import type { BuyRequest } from './purchasing.js';

/** Spec 7's example conflict: an active campaign cannot lose its only caller ID. */
export function assertNotLastNumber(campaign: CampaignRecord, nextNumbers: readonly string[]): void {
  if (campaign.active && campaign.fromNumbers.length > 0 && nextNumbers.length === 0) {
    throw conflict(`cannot remove the only phone number of active campaign ${campaign.id}; add another number or stop the campaign first`, 'LastNumberOfActiveCampaign');
  }
}

/** A campaign a number may go on; one of a deleted (hidden) project is gone with it (spec 3.1). */
export async function campaignForNumbers(store: Store, actor: Actor, campaignId: string, opts?: ReadOptions): Promise<CampaignRecord> {
  const campaign = await store.campaigns.get(actor.agencyId, campaignId, opts);
  if (!campaign || !(await store.projects.get(actor.agencyId, campaign.projectId))) throw notFound(`campaign ${campaignId} not found`);
  assertProjectAccess(actor, campaign.projectId);
  return campaign;
}

async function ownedNumber(store: Store, actor: Actor, number: string): Promise<OwnedNumber> {
  const owned = await store.phoneNumbers.get(actor.agencyId, number);
  if (!owned) throw notFound(`phone number ${number} is not owned by this agency`);
  return owned;
}

/** Buys a caller ID at the agency's carrier and puts it on the campaign (spec 4.5). */
export async function buyNumber(s: Services, actor: Actor, idempotencyKey: string | null, body: BuyRequest): Promise<OwnedNumber> {
  const campaign = await campaignForNumbers(s.store, actor, body.campaignId);
  return s.purchasing.buy(actor.agencyId, idempotencyKey, body, campaign.name);
}

/** Puts an agency-owned number on another campaign too. */
export async function assignNumber(store: Store, actor: Actor, number: string, campaignId: string): Promise<OwnedNumber> {
  return store.withTransaction(async (tx) => {
    const owned = await ownedNumber(tx, actor, number);
    const campaign = await campaignForNumbers(tx, actor, campaignId, { forUpdate: true });
    if (!campaign.fromNumbers.includes(owned.phoneNumber)) await tx.campaigns.save({ ...campaign, fromNumbers: [...campaign.fromNumbers, owned.phoneNumber] });
    return owned;
  });
}

/** Registers a number the agency has at its voice platform; one another agency owns is a conflict. */
export async function registerNumber(store: Store, actor: Actor, number: string, change: { nickname?: string; vapiPhoneNumberId?: string | null }): Promise<OwnedNumber> {
  if (await store.phoneNumbers.ownedElsewhere(actor.agencyId, number)) throw conflict(`${number} belongs to another agency`, 'NumberOwnedElsewhere');
  return store.phoneNumbers.register(actor.agencyId, number, change);
}

/** Takes a number off one campaign (refused for the only number of an active campaign). */
export async function unassignNumber(store: Store, actor: Actor, number: string, campaignId: string): Promise<OwnedNumber> {
  const owned = await ownedNumber(store, actor, number);
  await store.withTransaction(async (tx) => {
    const campaign = await campaignForNumbers(tx, actor, campaignId, { forUpdate: true });
    if (!campaign.fromNumbers.includes(owned.phoneNumber)) throw notFound(`${owned.phoneNumber} is not assigned to campaign ${campaign.id}`);
    const next = campaign.fromNumbers.filter((n) => n !== owned.phoneNumber);
    assertNotLastNumber(campaign, next);
    await tx.campaigns.save({ ...campaign, fromNumbers: next });
  });
  return owned;
}
