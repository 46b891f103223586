/**
 * The one HTTP client every feature uses. Answers are JSON
 * (`{success, error?, fields?}` on failure); anything else is a failure too.
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

type RequestOptions = {
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

export async function apiRequest<T = Record<string, unknown>>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? "GET" : "POST"),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, "Sem conexão com o servidor.");
  }
  const data = (await response.json().catch(() => null)) as
    | (T & { success?: boolean; error?: string; fields?: Record<string, string> })
    | null;
  if (!response.ok || !data || data.success === false) {
    throw new ApiError(response.status, data?.error ?? `HTTP ${response.status}`, data?.fields ?? {});
  }
  return data;
}
