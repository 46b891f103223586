import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** One request a fake service received. */
export type Received = {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  at: number;
};

export type Reply = { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };
export type Responder = (request: Received) => Reply | Promise<Reply>;

/**
 * A stand-in for a service outside our control (the CRM, the e-mail API, the
 * captcha check): it listens on 127.0.0.1, records every request and answers
 * what the test told it to.
 */
export class FakeService {
  readonly received: Received[] = [];
  private responder: Responder;
  private server: Server | null = null;
  url = "";

  constructor(responder: Responder = () => ({ status: 200, body: {} })) {
    this.responder = responder;
  }

  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  clear(): void {
    this.received.length = 0;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    if (!address || typeof address !== "object") throw new Error("fake service did not bind");
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: Received = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: req.headers,
      body: Buffer.concat(chunks),
      at: Date.now(),
    };
    this.received.push(request);
    const reply = await this.responder(request);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status, { "Content-Type": "application/json", ...reply.headers });
    res.end(body);
  }
}
