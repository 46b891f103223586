import { FakeService, type Received, type Reply } from "./fake-http";

/** One server event as the fake Graph API received it. */
export type MetaEvent = {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: string;
  event_source_url?: string;
  user_data: Record<string, unknown>;
};

/** One request to the events edge as it arrived. */
export type EventsRequest = {
  path: string;
  accessToken: string | null;
  contentType: string;
  testEventCode?: string;
  events: MetaEvent[];
  at: number;
};

/** The Graph API version the worker must use (its one constant). */
export const GRAPH_VERSION = "v26.0";

const SEVEN_DAYS_S = 7 * 24 * 60 * 60;

/** Meta's error body, as the Graph API writes it. */
function graphError(status: number, code: number, message: string, subcode?: number): Reply {
  const error: Record<string, unknown> = { message, type: "OAuthException", code, fbtrace_id: "AbCdEf" };
  if (subcode !== undefined) error.error_subcode = subcode;
  return { status, body: { error } };
}

/**
 * A stand-in for Meta's Graph API events edge
 * (`POST /{version}/{pixel}/events?access_token=…`). It refuses what the
 * real one refuses: another token (190), a pixel it does not know (100/33),
 * a body that is not JSON with a `data` list of up to 1,000 events, an event
 * without its required fields, and a whole request that carries an event
 * older than 7 days (100/2804003). What it took is kept, request by request.
 */
export class FakeMeta {
  readonly requests: EventsRequest[] = [];
  private readonly service: FakeService;
  private override: ((request: Received) => Reply | null) | null = null;
  token = "EAAB-token-de-teste";
  pixel = "1234567890";

  constructor() {
    this.service = new FakeService((request) => this.answer(request));
  }

  get url(): string {
    return this.service.url;
  }

  /** The worker's settings that send its events here. */
  settings(): Record<string, string> {
    return { META_GRAPH_URL: this.url, META_PIXEL_ID: this.pixel, META_ACCESS_TOKEN: this.token };
  }

  async start(): Promise<this> {
    await this.service.start();
    return this;
  }

  stop(): Promise<void> {
    return this.service.stop();
  }

  clear(): void {
    this.requests.length = 0;
  }

  /** Answers every request with `reply` (after recording it) until told `null`. */
  answerEveryone(reply: ((request: Received) => Reply | null) | null): void {
    this.override = reply;
  }

  /** Every event it took or was sent, in order. */
  events(): MetaEvent[] {
    return this.requests.flatMap((r) => r.events);
  }

  /** The events sent for one lead. */
  eventsFor(leadId: string): MetaEvent[] {
    return this.events().filter((e) => e.event_id === leadId);
  }

  private answer(request: Received): Reply {
    const url = new URL(request.path, "http://fake.invalid");
    const match = /^\/(v\d+\.\d+)\/([^/]+)\/events$/.exec(url.pathname);
    if (request.method !== "POST" || !match) return graphError(400, 100, "Unsupported request");
    const contentType = String(request.headers["content-type"] ?? "");
    let body: { data?: unknown; test_event_code?: string } = {};
    try {
      body = JSON.parse(request.body.toString());
    } catch {
      return graphError(400, 100, "Invalid parameter: the body is not JSON");
    }
    const events = (Array.isArray(body.data) ? body.data : []) as MetaEvent[];
    this.requests.push({
      path: url.pathname,
      accessToken: url.searchParams.get("access_token"),
      contentType,
      testEventCode: body.test_event_code,
      events,
      at: request.at,
    });
    const overridden = this.override?.(request);
    if (overridden) return overridden;
    if (match[1] !== GRAPH_VERSION) return graphError(400, 2635, `Graph API ${match[1]} is not the one expected`);
    if (url.searchParams.get("access_token") !== this.token) {
      return graphError(400, 190, "Invalid OAuth access token - Cannot parse access token", 463);
    }
    if (decodeURIComponent(match[2] ?? "") !== this.pixel) {
      return graphError(
        400,
        100,
        `Unsupported post request. Object with ID '${match[2]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        33,
      );
    }
    if (!contentType.startsWith("application/json")) return graphError(400, 100, "Invalid parameter");
    if (!Array.isArray(body.data) || events.length === 0 || events.length > 1000) {
      return graphError(400, 100, "Invalid parameter: data must hold 1 to 1000 events");
    }
    const now = Math.floor(Date.now() / 1000);
    for (const event of events) {
      const missing = ["event_name", "event_time", "action_source", "user_data"].filter(
        (field) => !(field in (event as Record<string, unknown>)),
      );
      if (missing.length > 0) return graphError(400, 100, `Invalid parameter: missing ${missing.join(", ")}`);
      if (now - event.event_time > SEVEN_DAYS_S) {
        return graphError(
          400,
          100,
          "Invalid parameter: event_time is too far in the past; events older than 7 days are not accepted",
          2804003,
        );
      }
    }
    return { status: 200, body: { events_received: events.length, messages: [], fbtrace_id: "AbCdEf" } };
  }
}
