import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../src/backends/config.ts";
import { CHAT_BACKEND_BASELINE, chatModuleOptions, type ChatFlags } from "../../cli/commands/chat.ts";

describe("backend settings", () => {
  it("take a command's baseline below everything the user sets: config defaults, provider, backend, environment, flags", () => {
    const baseline = { timeoutMs: 60_000, maxRetries: 1, temperature: 0.5 };
    expect(resolveSettings("openai:m", "openai", { env: {}, config: {}, baseline })).toMatchObject(baseline);
    const config = { defaults: { maxRetries: 3 }, backends: { "openai:m": { temperature: 0.2 } } };
    expect(resolveSettings("openai:m", "openai", { env: {}, config, baseline })).toMatchObject({
      timeoutMs: 60_000,
      maxRetries: 3,
      temperature: 0.2,
    });
    expect(resolveSettings("openai:m", "openai", { env: {}, config, baseline, timeoutMs: 5_000 })).toMatchObject({
      timeoutMs: 5_000,
      maxRetries: 3,
    });
    expect(resolveSettings("openai:m", "openai", { env: {}, config: {} })).not.toHaveProperty("timeoutMs");
  });

  it("give the chat with its offline fallback one retry and 60 s per attempt unless the user says otherwise", () => {
    const flags: ChatFlags = {
      port: "0",
      host: "127.0.0.1",
      backend: "openai:m",
      dbSync: "full",
      idleMinutes: "1440",
      fallback: true,
      learnedRedFlags: true,
    };
    const chat = chatModuleOptions(flags).backendOptions!;
    expect(resolveSettings("openai:m", "openai", { ...chat, env: {}, config: {} })).toMatchObject({
      timeoutMs: 60_000,
      maxRetries: 1,
    });
    expect(
      resolveSettings("openai:m", "openai", { ...chat, env: {}, config: { defaults: { maxRetries: 4 } } }),
    ).toMatchObject({ timeoutMs: 60_000, maxRetries: 4 });
    const flagged = chatModuleOptions({ ...flags, timeoutMs: "15000" }).backendOptions!;
    expect(resolveSettings("openai:m", "openai", { ...flagged, env: {}, config: {} })).toMatchObject({
      timeoutMs: 15_000,
      maxRetries: 1,
    });
    // Without the fallback a failed turn waits for the person's Retry: the backend's own defaults stand.
    const strict = chatModuleOptions({ ...flags, fallback: false }).backendOptions!;
    expect(resolveSettings("openai:m", "openai", { ...strict, env: {}, config: {} })).not.toHaveProperty("maxRetries");
    expect(CHAT_BACKEND_BASELINE).toEqual({ timeoutMs: 60_000, maxRetries: 1 });
  });
});
