import { request } from "node:http";
import type { App } from "./app";
import { uniqueIp } from "./leads";
import { eventually } from "./net";

/** A phone's Chrome, as most visitors come. */
export const CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/**
 * Opens `path` on `app` as a person's browser opens a page (a navigation,
 * from an address of its own). Through node:http, since fetch always says
 * its mode is 'cors'.
 */
export function visit(
  app: Pick<App, "baseUrl">,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      app.baseUrl + path,
      {
        method,
        headers: {
          "User-Agent": CHROME,
          "Sec-Fetch-Dest": "document",
          "Sec-Fetch-Mode": "navigate",
          "CF-Connecting-IP": uniqueIp(),
          ...headers,
        },
      },
      (answer) => {
        let body = "";
        answer.setEncoding("utf8");
        answer.on("data", (chunk: string) => {
          body += chunk;
        });
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body }));
        answer.on("error", reject);
      },
    );
    sent.on("error", reject);
    sent.end();
  });
}

/** Visits of the marker campaign counted so far, every day's. */
async function markerVisits(app: Pick<App, "sql">): Promise<number> {
  const [row] = await app.sql<{ n: number | null }>("SELECT sum(n) AS n FROM visit_counts WHERE campaign = 'marcador'");
  return row?.n ?? 0;
}

/**
 * Counting happens after the page is answered (`wait_until`), as does a
 * lead's first attempt: a visit of a campaign of its own, sent after every
 * answer under test came back, is seen counted once the work those answers
 * started had its turn at D1, which runs statements in the order they come.
 * (Its key must be made before a day's limit of keys is reached: a file that
 * floods the counts calls this once early.)
 */
export async function afterTheCountsBefore(app: Pick<App, "baseUrl" | "sql">): Promise<void> {
  const before = await markerVisits(app);
  const answer = await visit(app, "/?utm_source=teste&utm_campaign=marcador");
  if (answer.status !== 200) throw new Error(`the marker visit was answered ${answer.status}`);
  await eventually(async () => (await markerVisits(app)) === before + 1);
}
