import { FakeService, type Received } from "./fake-http";

/** A sent e-mail as the Resend-style API received it. */
export type SentMail = { from: string; to: string[]; subject: string; text: string; html: string };

/** The two links staff e-mails carry: the sign-up's confirmation and the password reset. */
export type LinkKind = "confirmar" | "redefinir";

function mailsIn(received: Received[]): SentMail[] {
  return received.filter((r) => r.path === "/emails").map((r) => JSON.parse(r.body.toString()) as SentMail);
}

function linkIn(mails: SentMail[], to: string, kind: LinkKind): string {
  const pattern = new RegExp(`https?://\\S+/auth\\?${kind}=[\\w-]+`);
  const mail = mails.filter((m) => m.to.includes(to) && pattern.test(m.text)).at(-1);
  const link = mail?.text.match(pattern)?.[0];
  if (!link) throw new Error(`no e-mail with a ${kind} link to ${to}`);
  return link;
}

/** Stands in for the e-mail API: accepts every message and keeps it. */
export class FakeMail extends FakeService {
  constructor() {
    super(() => ({ status: 200, body: { id: `mail-${Date.now()}` } }));
  }

  /** The worker's settings that send its e-mail here. */
  settings(): Record<string, string> {
    return { MAIL_API_KEY: "mail-test-key", MAIL_API_BASE_URL: this.url };
  }

  /** Every message the worker asked to send, retries included. */
  messages(): SentMail[] {
    return mailsIn(this.received);
  }

  /**
   * The messages that reached their mailboxes: as the real API does, a
   * request under an `Idempotency-Key` it already took sends nothing again.
   */
  delivered(): SentMail[] {
    const taken = new Set<string>();
    const sent = this.received.filter((r) => {
      const key = r.headers["idempotency-key"];
      if (r.path !== "/emails" || typeof key !== "string") return r.path === "/emails";
      if (taken.has(key)) return false;
      taken.add(key);
      return true;
    });
    return mailsIn(sent);
  }

  /** The messages sent to `to`. */
  messagesTo(to: string): SentMail[] {
    return this.messages().filter((m) => m.to.includes(to));
  }

  /** The confirmation link of the last sign-up e-mail sent to `to`. */
  confirmationLink(to: string): string {
    return linkIn(this.messages(), to, "confirmar");
  }

  /** Just the one-time token of that link. */
  confirmationToken(to: string): string {
    return new URL(this.confirmationLink(to)).searchParams.get("confirmar") ?? "";
  }

  /** The one-time token of the last password-reset e-mail sent to `to`. */
  resetToken(to: string): string {
    return new URL(linkIn(this.messages(), to, "redefinir")).searchParams.get("redefinir") ?? "";
  }
}
