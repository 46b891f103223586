import type { App } from "./app";

/** One object of a database's schema: a table, index, trigger or view, by its definition. */
export type SchemaObject = { type: string; name: string; definition: string };

/**
 * The schema of the app's D1 as SQLite keeps it (`sqlite_master`), each
 * definition normalised so that two databases built differently compare
 * equal when their tables, columns, constraints, indexes and triggers are:
 * comments, spacing, case, identifier quotes and `IF NOT EXISTS` do not count.
 * Wrangler's own migrations table and D1's internal tables are left out.
 */
export async function schemaOf(app: App): Promise<SchemaObject[]> {
  const rows = await app.sql<{ type: string; name: string; sql: string | null }>(
    `SELECT type, name, sql FROM sqlite_master
     WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name != 'd1_migrations'
     ORDER BY type, name`,
  );
  return rows.map((r) => ({ type: r.type, name: r.name, definition: normalise(r.sql ?? "") }));
}

export function normalise(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/["`]/g, "")
    .replace(/\bIF NOT EXISTS\b/gi, " ")
    .replace(/\s+/g, " ")
    .replace(/\s*([(),;])\s*/g, "$1")
    .trim()
    .toLowerCase();
}

/** The statements of a SQL file, for D1's batch (wrangler splits them as it does for migrations). */
export { statementsOf } from "../../scripts/local-worker.mjs";
