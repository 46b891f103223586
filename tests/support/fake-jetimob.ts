import { FakeService, type Received, type Reply } from "./fake-http";

/** One lead as the fake CRM received it. */
export type JetimobCall = {
  path: string;
  /** The `Authorization-Key` header. */
  authorizationKey: string | undefined;
  contentType: string;
  /** The multipart form fields. */
  fields: Record<string, string>;
  at: number;
};

/** How the fake answers one request. */
export type JetimobAnswer =
  | { accept: true; id?: string | number; delayMs?: number }
  | { status: number; body?: unknown; delayMs?: number; headers?: Record<string, string> };

export const accepted = (id?: string | number, delayMs?: number): JetimobAnswer => ({ accept: true, id, delayMs });
export const refused = (status: number, body: unknown = { error: `status ${status}` }): JetimobAnswer => ({
  status,
  body,
});
/** A redirect elsewhere (to a login page, or from http to https): the lead is not taken. */
export const redirected = (location: string): JetimobAnswer => ({
  status: 302,
  body: "",
  headers: { Location: location },
});
/** An answer that comes after the worker has stopped waiting. */
export const tooSlow = (delayMs = 8_000): JetimobAnswer => ({ accept: true, delayMs });

/**
 * A stand-in for Jetimob's lead API. It records every request with its form
 * fields parsed, and answers each lead (told apart by e-mail) from a script the
 * test gives; a lead with no script left is accepted with a fresh numeric id.
 */
export class FakeJetimob {
  readonly calls: JetimobCall[] = [];
  private readonly service: FakeService;
  private readonly scripts = new Map<string, JetimobAnswer[]>();
  private fallback: JetimobAnswer = accepted();
  private nextId = 5000;

  constructor() {
    this.service = new FakeService((request) => this.answer(request));
  }

  get url(): string {
    return this.service.url;
  }

  /** The worker's settings that deliver its leads here, with its keys. */
  settings(): Record<string, string> {
    return { JETIMOB_BASE_URL: this.url, JETIMOB_PUBLIC_KEY: "pub-test", JETIMOB_PRIVATE_KEY: "priv-test" };
  }

  async start(): Promise<this> {
    await this.service.start();
    return this;
  }

  stop(): Promise<void> {
    return this.service.stop();
  }

  /** Forgets the requests received so far. */
  clear(): void {
    this.calls.length = 0;
  }

  /** The answers to the next requests for this e-mail, in order. */
  script(email: string, ...answers: JetimobAnswer[]): void {
    this.scripts.set(email.toLowerCase(), answers);
  }

  /** The answer to every lead with no script left (by default: accepted). */
  answerEveryone(answer: JetimobAnswer): void {
    this.fallback = answer;
  }

  callsFor(email: string): JetimobCall[] {
    return this.calls.filter((c) => c.fields.email === email.toLowerCase());
  }

  private async answer(request: Received): Promise<Reply> {
    const contentType = String(request.headers["content-type"] ?? "");
    const fields: Record<string, string> = {};
    try {
      const form = await new Request("http://fake.invalid/", {
        method: "POST",
        headers: { "content-type": contentType },
        body: new Uint8Array(request.body),
      }).formData();
      form.forEach((value, name) => {
        fields[name] = String(value);
      });
    } catch {
      // Not a form: recorded with no fields, so the test sees what arrived.
    }
    const header = request.headers["authorization-key"];
    this.calls.push({
      path: request.path,
      authorizationKey: Array.isArray(header) ? header.join(",") : header,
      contentType,
      fields,
      at: request.at,
    });

    const answer = this.scripts.get(fields.email ?? "")?.shift() ?? this.fallback;
    if ("accept" in answer) {
      return { status: 200, body: { id: answer.id ?? this.nextId++ }, delayMs: answer.delayMs };
    }
    return { status: answer.status, body: answer.body, headers: answer.headers, delayMs: answer.delayMs };
  }
}
