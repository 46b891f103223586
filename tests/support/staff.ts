import agency from "../../agency.json" with { type: "json" };
import type { App } from "./app";
import type { FakeMail } from "./fake-mail";

export const STAFF_DOMAIN = agency.agency.staffEmailDomain;

let next = 1;
/** A company address no other test uses. */
export function staffEmail(name = "equipe"): string {
  return `${name}.${Date.now()}.${next++}@${STAFF_DOMAIN}`;
}

export type Call = {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  /** The `Set-Cookie` of the refresh cookie, if the answer set or cleared it. */
  cookie: string | null;
  /** The `Set-Cookie` of the device cookie, if the answer set it. */
  deviceCookie: string | null;
};

/** A browser-like caller: keeps the refresh and device cookies between calls and sends our Origin. */
export class StaffClient {
  /** The refresh token. */
  cookie: string | null = null;
  /** The device cookie of a browser that signed in before. */
  device: string | null = null;
  accessToken: string | null = null;
  readonly ip: string;

  constructor(
    private readonly app: App,
    ip?: string,
  ) {
    this.ip = ip ?? `203.0.113.${(next++ % 250) + 1}`;
  }

  async call(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Call> {
    const headers: Record<string, string> = { Origin: this.app.baseUrl, "CF-Connecting-IP": this.ip, ...extra };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const cookies = [
      this.cookie && `staff_refresh=${this.cookie}`,
      this.device && `staff_device=${this.device}`,
    ].filter(Boolean);
    if (cookies.length) headers.Cookie = cookies.join("; ");
    if (this.accessToken && !("Authorization" in headers)) headers.Authorization = `Bearer ${this.accessToken}`;
    const response = await fetch(this.app.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = response.headers.getSetCookie();
    const refresh = set.find((c) => c.startsWith("staff_refresh=")) ?? null;
    const device = set.find((c) => c.startsWith("staff_device=")) ?? null;
    if (refresh) this.cookie = refresh.split(";")[0]?.slice("staff_refresh=".length) || null;
    if (device) this.device = device.split(";")[0]?.slice("staff_device=".length) || null;
    const parsed = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (typeof parsed.access_token === "string") this.accessToken = parsed.access_token;
    return { status: response.status, body: parsed, headers: response.headers, cookie: refresh, deviceCookie: device };
  }

  signup(email: string, password: string) {
    return this.call("POST", "/api/auth/signup", { email, password });
  }

  login(email: string, password: string) {
    return this.call("POST", "/api/auth/login", { email, password });
  }

  confirm(token: string, password: string) {
    return this.call("POST", "/api/auth/confirm", { token, password });
  }

  requestReset(email: string) {
    return this.call("POST", "/api/auth/reset-request", { email });
  }

  reset(token: string, password: string) {
    return this.call("POST", "/api/auth/reset", { token, password });
  }

  changePassword(currentPassword: string, newPassword: string) {
    return this.call("POST", "/api/auth/password", {
      current_password: currentPassword,
      new_password: newPassword,
    });
  }

  refresh() {
    return this.call("POST", "/api/auth/refresh", {});
  }

  logout(scope: "global" | "local" = "global") {
    return this.call("POST", "/api/auth/logout", { scope });
  }

  session() {
    return this.call("GET", "/api/auth/session");
  }
}

/** Signs up (a fresh company address unless `email` is given), confirms through the e-mailed link and returns a signed-in client. */
export async function signedInStaff(app: App, mail: FakeMail, password = "vinho-tinto-2026", email = staffEmail()) {
  const client = new StaffClient(app);
  const signup = await client.signup(email, password);
  if (signup.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(signup.body)}`);
  const confirmed = await client.confirm(mail.confirmationToken(email), password);
  if (confirmed.status !== 200) throw new Error(`confirmation failed: ${JSON.stringify(confirmed.body)}`);
  return { client, email, password };
}
