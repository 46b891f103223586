import { FakeService, type Received, receivedBy } from "./fake-http";

/** A sent e-mail as the Resend-style API received it. */
export type SentMail = { from: string; to: string[]; subject: string; text: string; html: string };

function mailsIn(received: Received[]): SentMail[] {
  return received.filter((r) => r.path === "/emails").map((r) => JSON.parse(r.body.toString()) as SentMail);
}

function linkIn(mails: SentMail[], to: string): string {
  const mail = mails.filter((m) => m.to.includes(to)).at(-1);
  const link = mail?.text.match(/https?:\/\/\S+\/auth\?confirmar=[\w-]+/)?.[0];
  if (!link) throw new Error(`no confirmation e-mail to ${to}`);
  return link;
}

/** The confirmation link a fake mail server running elsewhere received for `to`. */
export async function confirmationLinkAt(mailUrl: string, to: string): Promise<string> {
  return linkIn(mailsIn(await receivedBy(mailUrl)), to);
}

/** Stands in for the e-mail API: accepts every message and keeps it. */
export class FakeMail extends FakeService {
  constructor() {
    super(() => ({ status: 200, body: { id: `mail-${Date.now()}` } }));
  }

  messages(): SentMail[] {
    return mailsIn(this.received);
  }

  /** The confirmation link of the last message sent to `to`. */
  confirmationLink(to: string): string {
    return linkIn(this.messages(), to);
  }

  /** Just the one-time token of that link. */
  confirmationToken(to: string): string {
    return new URL(this.confirmationLink(to)).searchParams.get("confirmar") ?? "";
  }
}
