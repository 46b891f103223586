import { apiRequest } from "../../lib/api";
import type { Attribution } from "./attribution";

export const LEAD_ENDPOINT = "/functions/v1/send-lead-jetimob";

export type LeadPayload = Attribution & {
  name: string;
  email: string;
  whatsapp: string;
  /** The honeypot: people never see it, bots fill it; named so that no autofill fills it. */
  hp_nao_preencher: string;
  /** The bot check's one-time token, when Turnstile is on. */
  turnstile_token?: string;
};

export async function sendLead(payload: LeadPayload): Promise<void> {
  await apiRequest(LEAD_ENDPOINT, { method: "POST", body: payload });
}
