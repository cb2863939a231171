import type { NumberInventory, Ports } from '../../engine/ports.js';
import type { Store } from '../store/index.js';
import { embeddedCrm } from './embedded-crm.js';
import { sandboxMessaging } from './sandbox-messaging.js';
import { embeddedCalendar } from './embedded-calendar.js';
import { storeExecutionLog } from './execution-log.js';
import { sandboxNumberInventory } from './sandbox-voice-numbers.js';
import { nudgeAlerts } from '../alerts/nudge.js';

/** The embedded adapters: the product's own sandbox of the outside world, on the store. */
export function createEmbeddedPorts(store: Store, opts: { carrierLatencyMs?: number } = {}): Ports {
  return {
    crm: embeddedCrm(store),
    messaging: sandboxMessaging(store, opts.carrierLatencyMs ?? 0),
    calendar: embeddedCalendar(store),
    executionLog: storeExecutionLog(store, nudgeAlerts),
  };
}

export function createNumberInventory(store: Store): NumberInventory {
  return sandboxNumberInventory(store);
}
