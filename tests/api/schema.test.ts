import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { repoRoot } from "../support/paths";
import { normalise, schemaOf, statementsOf } from "../support/schema";

// schema.sql is the schema to read; migrations/ is how every database is made.
// The two must describe the same database.
let migrated: App;
let fromSchemaFile: App;

beforeAll(async () => {
  [migrated, fromSchemaFile] = await Promise.all([spawnApp(), spawnApp({ migrate: false })]);
  const statements = await statementsOf(join(repoRoot, "schema.sql"));
  await fromSchemaFile.batch(statements.map((s): [string] => [s]));
});

afterAll(async () => {
  await Promise.all([migrated?.stop(), fromSchemaFile?.stop()]);
});

describe("schema.sql", () => {
  it("describes exactly what applying every migration to an empty database makes", async () => {
    const [fromMigrations, fromFile] = await Promise.all([schemaOf(migrated), schemaOf(fromSchemaFile)]);
    const names = fromMigrations.map((o) => `${o.type} ${o.name}`);
    for (const expected of ["table leads", "table staff_users", "index leads_newest", "trigger leads_search_insert"]) {
      expect(names).toContain(expected);
    }
    expect(fromFile).toEqual(fromMigrations);
  });
});

describe("migrations/", () => {
  it("are numbered files, applied in order, each once", async () => {
    const files = (await readdir(join(repoRoot, "migrations"))).filter((f) => f.endsWith(".sql")).sort();
    expect(files[0]).toBe("0001_initial.sql");
    files.forEach((file, i) => {
      expect(file).toMatch(new RegExp(`^${String(i + 1).padStart(4, "0")}_[a-z0-9_]+\\.sql$`));
    });
    const applied = await migrated.sql<{ name: string }>("SELECT name FROM d1_migrations ORDER BY id");
    expect(applied.map((r) => r.name)).toEqual(files);
  });
});

describe("normalising a definition", () => {
  it("ignores comments, spacing, quotes and IF NOT EXISTS, but not a changed column", () => {
    const a = `CREATE TABLE IF NOT EXISTS "t" (\n  a INTEGER NOT NULL, -- the a\n  b TEXT\n)`;
    expect(normalise(a)).toBe(normalise("create table t (a integer not null , b text)"));
    expect(normalise(a)).not.toBe(normalise("create table t (a integer, b text)"));
  });
});
