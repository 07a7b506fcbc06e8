import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDirForTest } from "../temp-dirs.ts";
import { runBin, runCli } from "./helpers.ts";

/**
 * The help of every option that takes a backend id lists the ids from the provider registry — the
 * built-in providers, and the plug-ins that `--provider-module` or the config file name — instead of a
 * hand-written list.
 */

const MOCK = fileURLToPath(new URL("../../examples/mock-provider/mock-provider.mjs", import.meta.url));

/** An option's description in `--help`, its wrapped lines joined. */
function optionHelp(help: string, flag: string): string {
  const lines = help.split("\n");
  const start = lines.findIndex((line) => line.trimStart().startsWith(`${flag} `));
  expect(start, `${flag} in the help`).toBeGreaterThanOrEqual(0);
  const own = [lines[start]!.trimStart().replace(/^\S+ \S+\s+/, "")];
  for (const line of lines.slice(start + 1)) {
    if (/^ {2}-/.test(line) || line.trim() === "") break;
    own.push(line.trim());
  }
  return own.join(" ");
}

/** `describeBackendIds()` as the help wraps it: a line break may stand for any space. */
function idsPattern(ids: string): RegExp {
  return new RegExp(ids.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"));
}

describe("the help of options that take a backend id", () => {
  // The built-in chat-model providers as the help lists them, written out: the registry of this test
  // process also holds the providers other test files registered (workers share modules between files).
  const chatModels =
    "openai:<model> (OpenAI-compatible server), ollama:<model>, llamacpp:<path to .gguf>, langchain:<provider>:<model> (any installed LangChain chat-model integration)";

  it("lists the registered providers' ids: bench, chat, simulate and score", async () => {
    const bench = (await runCli(["bench", "--help"])).stdout;
    expect(optionHelp(bench, "--backend")).toMatch(
      idsPattern(`embedded (offline, default), ${chatModels}, or a --provider-module's`),
    );
    expect(optionHelp(bench, "--judge")).toMatch(
      idsPattern(`exact, or a backend id for an LLM judge: ${chatModels}, or a --provider-module's`),
    );
    expect(optionHelp((await runCli(["chat", "--help"])).stdout, "--backend")).toMatch(
      idsPattern(`embedded (offline, default), ${chatModels}, or a --provider-module's`),
    );
    expect(optionHelp((await runCli(["simulate", "--help"])).stdout, "--doctor")).toMatch(
      idsPattern(`the doctor: embedded (default), ${chatModels}, or a --provider-module's`),
    );
    expect(optionHelp((await runCli(["score", "meditod-nlu", "--help"])).stdout, "--judge")).toMatch(
      idsPattern(`backend id (the paper's prompt): ${chatModels}, or a --provider-module's`),
    );
    expect(chatModels).toContain("langchain:<provider>:<model>");
  });

  it("adds the ids of a --provider-module's providers, on every command that takes one", async () => {
    for (const args of [["bench"], ["chat"], ["simulate"], ["score", "meditod-pol"]]) {
      // A process of its own: the plug-in stays registered in the process that loads it.
      const result = runBin([...args, "--provider-module", MOCK, "--help"]);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/mock:<name>\s+\(in-process\s+stand-in\s+model\)/);
    }
  });

  it("adds the ids of the providers the config file defines by module", async () => {
    const config = join(tempDirForTest(), "config.json");
    writeFileSync(config, JSON.stringify({ providers: { mock: MOCK } }));
    const result = runBin(["chat", "--help"], { env: { ANAMNESIS_CONFIG: config } });
    expect(optionHelp(result.stdout, "--backend")).toMatch(/mock:<name> \(in-process stand-in model\)/);
  });

  it("still prints when a provider module cannot be loaded: running the command reports that", async () => {
    const result = await runCli(["bench", "--provider-module", "./no-such-module.mjs", "--help"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    expect(optionHelp(result.stdout, "--backend")).toMatch(idsPattern(chatModels));
  });
});
