import type { Response } from './route.js';
import { ErrorBody } from '../../schemas/common.js';

/** The 503 of `vendorFailure`, as an operation that waits on a vendor declares it. */
export const VENDOR_UNAVAILABLE: Response = {
  description:
    'the vendor did not answer in time, could not be reached, or asked us to slow down: nothing was stored; send the same request again after Retry-After seconds',
  headers: {
    'Retry-After': { description: 'seconds to wait before sending the request again (the vendor\'s own wait when it gave one, else 5)', required: true, schema: { type: 'integer', minimum: 0 } },
  },
  schema: ErrorBody,
};
