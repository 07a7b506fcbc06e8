import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED, PACKAGE_ROOT, bundledPath, readBundledJson } from "../src/foundation/package-paths.ts";

describe("package paths", () => {
  it("finds the root holding our package.json", () => {
    expect((JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { name: string }).name).toBe(
      "anamnesis",
    );
  });

  it("resolves every bundled folder and file to something that exists", () => {
    for (const [name, path] of Object.entries(BUNDLED)) {
      expect(existsSync(path), `${name}: ${path}`).toBe(true);
    }
    expect(statSync(BUNDLED.prompts).isDirectory()).toBe(true);
    expect(existsSync(join(BUNDLED.meditod, "dialogs.json"))).toBe(true);
    expect(existsSync(join(BUNDLED.serverPublic, "index.html"))).toBe(true);
  });

  it("reads bundled JSON relative to the root", () => {
    expect(bundledPath("ontology", "cmas.json")).toBe(join(PACKAGE_ROOT, "ontology", "cmas.json"));
    expect(readBundledJson("ontology/cmas.json")).toHaveProperty("slots");
  });
});
