import { FakeService, type Received, type Reply } from "./fake-http";

/**
 * Cloudflare's documented Turnstile test keys. The site key renders a widget
 * that always passes; each secret makes the verification answer one way,
 * whatever the token (the dummy token is what test widgets hand out).
 */
export const TURNSTILE_TEST = {
  siteKey: "1x00000000000000000000AA",
  passingSecret: "1x0000000000000000000000000000000AA",
  failingSecret: "2x0000000000000000000000000000000AA",
  spentSecret: "3x0000000000000000000000000000000AA",
  dummyToken: "XXXX.DUMMY.TOKEN.XXXX",
} as const;

/**
 * A secret that answers as a real widget's does: for a token solved on a
 * page, the page's host and the widget's `action` (tokens made by
 * {@link solvedToken}).
 */
export const SITE_SECRET = "0x4AAAAAAAfake-site-secret-of-our-own";

/** A token as the fake hands it out for a widget solved on `hostname` for `action`. */
export function solvedToken(hostname: string, action: string): string {
  return `solved.${hostname}.${action}`;
}

export const SITEVERIFY_PATH = "/turnstile/v0/siteverify";

/** One verification as the fake received it. */
export type Verification = { secret: string; response: string; remoteip: string | null; contentType: string };

/** What the real service answers for a secret, test secrets included. */
function answerFor(secret: string): Reply {
  const now = new Date().toISOString();
  switch (secret) {
    case TURNSTILE_TEST.passingSecret:
      return { status: 200, body: { success: true, "error-codes": [], challenge_ts: now, hostname: "example.com" } };
    case TURNSTILE_TEST.failingSecret:
      return { status: 200, body: { success: false, "error-codes": ["invalid-input-response"] } };
    case SITE_SECRET:
      // Read where the token says it was solved (see solvedToken).
      return { status: 200, body: { success: false, "error-codes": ["invalid-input-response"] } };
    case TURNSTILE_TEST.spentSecret:
      return { status: 200, body: { success: false, "error-codes": ["timeout-or-duplicate"] } };
    case "":
      return { status: 200, body: { success: false, "error-codes": ["missing-input-secret"] } };
    default:
      return { status: 200, body: { success: false, "error-codes": ["invalid-input-secret"] } };
  }
}

/** Stands in for Turnstile's siteverify endpoint on 127.0.0.1. */
export class FakeTurnstile extends FakeService {
  constructor() {
    super((request) => (request.path === SITEVERIFY_PATH && request.method === "POST" ? answer(request) : notFound));
  }

  /** The URL to give the worker as TURNSTILE_VERIFY_URL. */
  get verifyUrl(): string {
    return this.url + SITEVERIFY_PATH;
  }

  verifications(): Verification[] {
    return this.received.filter((r) => r.path === SITEVERIFY_PATH).map(parse);
  }
}

const notFound: Reply = { status: 404, body: { success: false, "error-codes": ["bad-request"] } };

function parse(request: Received): Verification {
  const form = new URLSearchParams(request.body.toString());
  return {
    secret: form.get("secret") ?? "",
    response: form.get("response") ?? "",
    remoteip: form.get("remoteip"),
    contentType: String(request.headers["content-type"] ?? ""),
  };
}

function answer(request: Received): Reply {
  const { secret, response } = parse(request);
  if (!response) return { status: 200, body: { success: false, "error-codes": ["missing-input-response"] } };
  if (secret === SITE_SECRET) return solvedAnswer(request);
  return answerFor(secret);
}

/**
 * A real widget's pass for a token of {@link solvedToken}: where and for
 * which form it was solved; any other token is invalid.
 */
export function solvedAnswer(request: Received): Reply {
  const solved = /^solved\.(.+)\.([a-z]*)$/.exec(parse(request).response);
  if (!solved) return { status: 200, body: { success: false, "error-codes": ["invalid-input-response"] } };
  const [, hostname, action] = solved;
  const body = { success: true, "error-codes": [], challenge_ts: new Date().toISOString(), hostname, action };
  return { status: 200, body };
}
