import { EventEmitter } from 'node:events';

/**
 * A new alert was recorded in this process: the dispatcher starts its delivery at once instead of
 * at its next poll. Alerts recorded by other processes (separate workers) are found by the poll.
 */
export const alertNudges = new EventEmitter();
export const nudgeAlerts = () => void alertNudges.emit('alert');
