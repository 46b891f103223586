import { afterEach, describe, expect, it } from "vitest";
import { PageStarts } from "./pageStarts";

describe("PageStarts", () => {
  afterEach(() => window.sessionStorage.clear());

  it("remembers where a page starts across a reload of the tab", () => {
    new PageStarts().set("?page=1000", { after: "1792455240203:b009b485" });
    new PageStarts().set("?status=falhas&page=2", { before: "1792455240999:c1" });
    const reloaded = new PageStarts();
    expect(reloaded.get("?page=1000")).toEqual({ after: "1792455240203:b009b485" });
    expect(reloaded.get("?status=falhas&page=2")).toEqual({ before: "1792455240999:c1" });
    expect(reloaded.get("?page=3")).toBeUndefined();
  });

  it("keeps the newest 50 pages turned to, a page turned to again counting as new", () => {
    const starts = new PageStarts();
    for (let page = 2; page <= 52; page++) starts.set(`?page=${page}`, { after: `${page}:x` });
    starts.set("?page=3", { after: "3:again" });
    starts.set("?page=53", { after: "53:x" });
    const reloaded = new PageStarts();
    expect(reloaded.get("?page=2")).toBeUndefined();
    expect(reloaded.get("?page=4")).toBeUndefined();
    expect(reloaded.get("?page=3")).toEqual({ after: "3:again" });
    expect(reloaded.get("?page=53")).toEqual({ after: "53:x" });
  });

  it("ignores what it cannot read, and works without storage", () => {
    window.sessionStorage.setItem("leads-page-starts", "{not json");
    expect(new PageStarts().get("?page=2")).toBeUndefined();
    window.sessionStorage.setItem("leads-page-starts", JSON.stringify([["?page=2", { after: 5 }], "x"]));
    expect(new PageStarts().get("?page=2")).toBeUndefined();
    const memoryOnly = new PageStarts(null);
    memoryOnly.set("?page=2", { after: "1:a" });
    expect(memoryOnly.get("?page=2")).toEqual({ after: "1:a" });
  });
});
