/**
 * The parts of Vapi's API shapes this adapter writes or reads (Vapi's OpenAPI document, VapiAI/docs
 * `fern/apis/api/openapi.json`; the full schemas are in test/fixtures/vendor-openapi/vapi and the
 * tests hold our requests and the fake's reports to them). Everything read is optional here:
 * values from the wire are checked where they are used.
 */

/** What we store in `assistantOverrides.metadata` so a report can be matched back to our call. */
export interface VapiCallMetadata {
  callId: string;
  agencyId: string;
  campaignId: string;
  contactId: string;
  leadId?: string;
}

/** `CreateCallDTO`, the subset we send. */
export interface VapiCreateCall {
  assistantId: string;
  phoneNumberId: string;
  customer: { number: string; name?: string };
  /** `maxLength: 40`, "just for your own reference": our call id when it fits */
  name?: string;
  assistantOverrides: {
    variableValues?: Record<string, string>;
    metadata: VapiCallMetadata;
  };
}

/** `Call`, the subset we read. */
export interface VapiCall {
  id?: unknown;
  type?: unknown;
  status?: unknown;
  endedReason?: unknown;
  assistantId?: unknown;
  phoneNumberId?: unknown;
  customer?: { number?: unknown; name?: unknown } | null;
  assistantOverrides?: { metadata?: Record<string, unknown> | null } | null;
  startedAt?: unknown;
  endedAt?: unknown;
  cost?: unknown;
  createdAt?: unknown;
}

/**
 * `CreateTwilioPhoneNumberDTO`, the subset we send to `POST /phone-number`: a number the agency
 * bought at Twilio, imported with the account's credentials so Vapi can point its voice URL at
 * itself and place calls from it.
 */
export interface VapiCreateTwilioPhoneNumber {
  provider: 'twilio';
  number: string;
  twilioAccountSid: string;
  twilioAuthToken: string;
  /** `maxLength: 40`, "just for your own reference" */
  name?: string;
  /** false: Vapi leaves the number's messaging URL at Twilio as it is */
  smsEnabled: boolean;
}

/** A phone number as `POST /phone-number` and `GET /phone-number` answer it, the subset we read. */
export interface VapiPhoneNumber {
  id?: unknown;
  provider?: unknown;
  number?: unknown;
  twilioAccountSid?: unknown;
}
