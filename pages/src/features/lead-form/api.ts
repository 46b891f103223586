import { ApiError, apiRequest } from "../../lib/api";
import type { Attribution } from "./attribution";

export const LEAD_ENDPOINT = "/functions/v1/send-lead-jetimob";

export type LeadPayload = Attribution & {
  name: string;
  email: string;
  whatsapp: string;
  /** The honeypot: people never see it, bots fill it; named so that no autofill fills it. */
  hp_nao_preencher: string;
  /** Sent only when the visitor ticked the optional consent box (`ADS_CONSENT=checkbox`). */
  ads_consent?: true;
  /** The bot check's one-time token, when Turnstile is on. */
  turnstile_token?: string;
};

/**
 * How long a lead may be on its way before the form says it did not go: on a
 * weak phone network a request can hang for good. A lead that did arrive is
 * not lost, and sent again it is the same lead (the worker merges repeats).
 */
export const SEND_TIMEOUT_MS = 20_000;

/** Sends the lead; no answer within `timeoutMs` is a failure with no answer (status 0). */
export async function sendLead(payload: LeadPayload, timeoutMs = SEND_TIMEOUT_MS): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await apiRequest(LEAD_ENDPOINT, { method: "POST", body: payload, signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted) throw new ApiError(0, "Sem resposta do servidor.");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
