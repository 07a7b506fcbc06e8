import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { bundledPath } from "../../src/foundation/package-paths.ts";

const packageJson = JSON.parse(readFileSync(bundledPath("package.json"), "utf8")) as { scripts: { bench: string } };
/** `npm run bench`'s Node flags: `node <flags> bin/anamnesis.js …`. */
const benchFlags = /^node((?: --\S+)*) bin\/anamnesis\.js /.exec(packageJson.scripts.bench)![1]!.trim().split(" ");

/** What `codeCacheState()` of `bin/code-cache.js` says in a Node started with these flags. */
function cacheStateUnder(flags: readonly string[]): string {
  const probe = `import { codeCacheState } from ${JSON.stringify(bundledPath("bin", "code-cache.js"))}; process.stdout.write(codeCacheState());`;
  const file = join(mkdtempSync(join(tmpdir(), "anamnesis-code-cache-")), "probe.mjs");
  writeFileSync(file, probe);
  // NODE_OPTIONS would change V8's flags (and so the cache's fit) without showing in process.execArgv.
  const env = { ...process.env, NODE_OPTIONS: "" };
  return spawnSync(process.execPath, [...flags, file], { encoding: "utf8", env }).stdout;
}

/** The predictions of the first examples of the MediTOD validation split, run by the bin under these Node flags, latencies blanked. */
function benchPredictions(flags: readonly string[]): string[] {
  const out = join(mkdtempSync(join(tmpdir(), "anamnesis-code-cache-run-")), "run");
  const run = spawnSync(
    process.execPath,
    [
      ...flags,
      bundledPath("bin", "anamnesis.js"),
      "bench",
      "--suite",
      "meditod",
      "--split",
      "valid",
      "--limit",
      "8",
      "--out",
      out,
    ],
    { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } },
  );
  expect(run.status, run.stderr).toBe(0);
  return ["nlu", "pol", "nlg"].map((task) =>
    readFileSync(join(out, `predictions-meditod-${task}.jsonl`), "utf8").replace(/"latency_ms":[0-9.e-]+/g, ""),
  );
}

describe("the CLI's cached code", () => {
  it("is there after a build for Node without flags and with npm run bench's, and V8 takes it", () => {
    expect(benchFlags.length).toBeGreaterThan(0);
    expect(cacheStateUnder([])).toBe("accepted");
    expect(cacheStateUnder(benchFlags)).toBe("accepted");
  });

  it("is absent under other flags, and the CLI then runs from the ES module bundle with the same predictions", () => {
    const otherFlags = ["--max-old-space-size=2048"];
    expect(cacheStateUnder(otherFlags)).toBe("absent");
    expect(benchPredictions(otherFlags)).toEqual(benchPredictions(benchFlags));
  });
});

describe("the code-cached CLI's launcher", () => {
  it("leaves a command line that may load a provider plug-in to the ES module bundle, whose modules plug-ins share", async () => {
    const { mayLoadPlugins } = (await import(bundledPath("bin", "code-cache.js"))) as {
      mayLoadPlugins: (argv: string[], env: NodeJS.ProcessEnv) => boolean;
    };
    const home = mkdtempSync(join(tmpdir(), "anamnesis-home-"));
    const env = { XDG_CONFIG_HOME: home };
    expect(mayLoadPlugins(["bench", "--suite", "meditod"], env)).toBe(false);
    expect(mayLoadPlugins(["bench", "--provider-module", "./p.mjs"], env)).toBe(true);
    expect(mayLoadPlugins(["bench", "--provider-module=./p.mjs"], env)).toBe(true);
    expect(mayLoadPlugins(["chat", "--config", "c.json"], env)).toBe(true);
    expect(mayLoadPlugins(["bench"], { ...env, ANAMNESIS_CONFIG: "c.json" })).toBe(true);
    mkdirSync(join(home, "anamnesis"));
    writeFileSync(join(home, "anamnesis", "config.json"), "{}");
    expect(mayLoadPlugins(["bench"], env)).toBe(true);
  });

  it("runs only a benchmark from the cached code; help, the version and shorter commands from the ES module bundle", async () => {
    const { benefits } = (await import(bundledPath("bin", "code-cache.js"))) as {
      benefits: (argv: string[]) => boolean;
    };
    for (const argv of [["bench"], ["bench", "--suite", "meditod-nlu", "--limit", "3"]])
      expect(benefits(argv), argv.join(" ")).toBe(true);
    for (const argv of [
      [],
      ["--help"],
      ["-h"],
      ["help", "bench"],
      ["bench", "--help"],
      ["--version"],
      ["-V"],
      ["chat", "--terminal"],
      ["score", "meditod-nlu", "--predictions", "p.jsonl"],
    ])
      expect(benefits(argv), argv.join(" ")).toBe(false);
  });

  it("lends an import() that requires packages and builtins (one copy of each) and imports ES-only modules and files", async () => {
    const { importerFor } = (await import(bundledPath("bin", "code-cache.js"))) as {
      importerFor: (require: NodeJS.Require) => (specifier: string) => Promise<unknown>;
    };
    const require = createRequire(bundledPath("dist", "bundle", "cli.cjs"));
    const importer = importerFor(require);
    expect(await importer("@langchain/core/messages")).toBe(require("@langchain/core/messages"));
    expect(await importer("node:os")).toBe(require("node:os"));
    const file = join(mkdtempSync(join(tmpdir(), "anamnesis-esm-")), "only-esm.mjs");
    writeFileSync(file, "export const answer = 42;");
    expect(((await importer(pathToFileURL(file).href)) as { answer: number }).answer).toBe(42);
    await expect(importer("no-such-package-anywhere")).rejects.toMatchObject({ code: "MODULE_NOT_FOUND" });
  });
});
