import { describe, expect, it } from "vitest";
import { createBackend } from "../../src/backends/registry.ts";
import { startFakeOllamaServer, startFakeOpenAIServer } from "./fake-llm-server.ts";

/**
 * Embedding requests run as many at once as the backend's concurrency allows: LangChain's embedding
 * clients queue their own calls (2 at once for OpenAI, 1 for Ollama), which made the official protocol's
 * query embeddings the bottleneck of a run.
 */

describe("embedding concurrency", () => {
  for (const [provider, start] of [["openai", startFakeOpenAIServer], ["ollama", startFakeOllamaServer]] as const) {
    it(`${provider}: as many embedding requests in flight as --concurrency`, async () => {
      const server = await start({ latencyMs: 100 });
      try {
        const backend = await createBackend(`${provider}:embedder`, { baseUrl: server.baseUrl, concurrency: 8, noCache: true, maxRetries: 0, env: {}, config: {} });
        await Promise.all(Array.from({ length: 16 }, (_, index) => backend.embed!([`text ${index}`])));
        expect(server.maxInFlight).toBe(8);
      } finally {
        await server.close();
      }
    });
  }
});
