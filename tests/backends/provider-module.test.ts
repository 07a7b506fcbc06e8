import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configuredProviderModules, loadConfig, resolveSettings } from "../../src/backends/config.ts";
import { loadProviderModule } from "../../src/backends/provider-module.ts";
import { createBackend, listProviders } from "../../src/backends/registry.ts";
import { tempDir } from "./helpers.ts";

const EXAMPLE = fileURLToPath(new URL("../../examples/mock-provider/mock-provider.mjs", import.meta.url));
const USER = [{ role: "user", content: "cough for two days" }] as const;

describe("provider modules", () => {
  let dir: { path: string; remove: () => void };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it("registers what the example plug-in's default export defines", async () => {
    expect(await loadProviderModule(EXAMPLE)).toEqual(["mock"]);
    expect(listProviders()).toContain("mock");
    const backend = await createBackend("mock:demo", { env: {}, config: {}, cacheDir: dir.path });
    expect(backend.id).toBe("mock:demo");
    expect((await backend.generate(USER)).text).toBe("echo: cough for two days");
  });

  it("registers every definition of a list, and refuses a module that defines none", async () => {
    const list = join(dir.path, "two.mjs");
    writeFileSync(
      list,
      `const create = () => { throw new Error("unused"); };\nexport default [{ name: "first", create }, { name: "second", create }];\n`,
    );
    expect(await loadProviderModule(list)).toEqual(["first", "second"]);

    const none = join(dir.path, "none.mjs");
    writeFileSync(none, "export const provider = 1;\n");
    await expect(loadProviderModule(none)).rejects.toThrow(
      /must export default a provider definition \{name, create\}/,
    );
    await expect(loadProviderModule(join(dir.path, "missing.mjs"))).rejects.toThrow(/provider module not found/);
    const broken = join(dir.path, "broken.mjs");
    writeFileSync(broken, "export default {;\n");
    await expect(loadProviderModule(broken)).rejects.toThrow(/cannot load provider module/);
  });

  it("loads a provider the config file names on first use, and only that one", async () => {
    const configFile = join(dir.path, "config.json");
    const list = join(dir.path, "pair.mjs");
    writeFileSync(
      list,
      `import mock from ${JSON.stringify(EXAMPLE)};\nexport default [{ ...mock, name: "configured" }, { ...mock, name: "other" }];\n`,
    );
    writeFileSync(
      configFile,
      JSON.stringify({ providers: { configured: { module: list, temperature: 0.3 }, wrong: EXAMPLE } }),
    );
    const config = loadConfig(configFile);
    expect(configuredProviderModules(config)).toEqual([
      { name: "configured", module: list },
      { name: "wrong", module: EXAMPLE },
    ]);
    expect(listProviders()).not.toContain("configured");
    const backend = await createBackend("configured:x", { env: {}, configPath: configFile, cacheDir: dir.path });
    expect(backend.parameters).toMatchObject({ temperature: 0.3 }); // the entry's settings reach the plug-in
    expect(listProviders()).toContain("configured");
    expect(listProviders()).not.toContain("other");
    expect(resolveSettings("configured:x", "configured", { env: {}, config })).toMatchObject({ temperature: 0.3 });
    expect(resolveSettings("configured:x", "configured", { env: {}, config })).not.toHaveProperty("module");
    await expect(createBackend("wrong:x", { env: {}, configPath: configFile })).rejects.toThrow(
      /defines mock, not wrong/,
    );
  });

  it("resolves a config's relative module path against the config file's folder", () => {
    const configFile = join(dir.path, "config.json");
    writeFileSync(
      configFile,
      JSON.stringify({ providers: { local: "./plugins/mine.js", packaged: "anamnesis-provider-x" } }),
    );
    expect(configuredProviderModules(loadConfig(configFile))).toEqual([
      { name: "local", module: join(dir.path, "plugins", "mine.js") },
      { name: "packaged", module: "anamnesis-provider-x" },
    ]);
  });
});
