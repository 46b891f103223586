/**
 * The one HTTP client every feature uses. Answers are JSON
 * (`{success, error?, fields?}` on failure); anything else is a failure too.
 * Staff calls (`staff: true`) carry the access token; a 401 is retried once
 * after a token refresh and otherwise signs the page out (back to /auth).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly fields: Record<string, string>;

  constructor(status: number, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.fields = fields;
  }
}

/**
 * The server's own words for a failure it answered (an ApiError with a
 * status), else `fallback`: without an answer there are no words of its own.
 */
export function serverMessage(error: unknown, fallback?: string): string | undefined {
  return error instanceof ApiError && error.status > 0 ? error.message : fallback;
}

/**
 * Whether a staff call failed because the session ended (401): the page is
 * already on its way to /auth, so it says nothing of its own.
 */
export function sessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** A file sent as it is (a spend import), instead of a JSON body. */
  rawBody?: Blob;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Send the staff access token; on 401 refresh once, then sign out. */
  staff?: boolean;
};

/** How staff calls get and renew their token (provided by the session module). */
export type StaffAuth = {
  accessToken: () => string | null;
  refresh: () => Promise<boolean>;
  signedOut: () => void;
};

let staffAuth: StaffAuth | null = null;

export function provideStaffAuth(auth: StaffAuth): void {
  staffAuth = auth;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const token = options.staff ? staffAuth?.accessToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(path, {
      method: options.method ?? (options.body === undefined && !options.rawBody ? "GET" : "POST"),
      headers,
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, "Sem conexão com o servidor.");
  }
}

/** The raw answer of a staff call, after the 401 handling (for downloads). */
export async function staffFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  let response = await send(path, { ...options, staff: true });
  if (response.status === 401 && staffAuth && (await staffAuth.refresh())) {
    response = await send(path, { ...options, staff: true });
  }
  if (response.status === 401) staffAuth?.signedOut();
  return response;
}

export async function apiRequest<T = Record<string, unknown>>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = options.staff ? await staffFetch(path, options) : await send(path, options);
  return readAnswer<T>(response);
}

/** The JSON of a successful answer; an ApiError with the server's words otherwise. */
export async function readAnswer<T>(response: Response): Promise<T> {
  const data = (await response.json().catch(() => null)) as
    | (T & { success?: boolean; error?: string; fields?: Record<string, string> })
    | null;
  if (!response.ok || !data || data.success === false) {
    throw new ApiError(response.status, data?.error ?? `HTTP ${response.status}`, data?.fields ?? {});
  }
  return data;
}
