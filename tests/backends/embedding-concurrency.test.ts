import { describe, expect, it } from "vitest";
import { fakeServerBackendForTest } from "./helpers.ts";

/**
 * Embedding requests run as many at once as the backend's concurrency allows: LangChain's embedding
 * clients queue their own calls (2 at once for OpenAI, 1 for Ollama), which made the official protocol's
 * query embeddings the bottleneck of a run.
 */

describe("embedding concurrency", () => {
  for (const provider of ["openai", "ollama"] as const) {
    it(`${provider}: as many embedding requests in flight as --concurrency`, async () => {
      const { server, backend } = await fakeServerBackendForTest(
        provider,
        `${provider}:embedder`,
        { latencyMs: 100 },
        { concurrency: 8, noCache: true, maxRetries: 0 },
      );
      await Promise.all(Array.from({ length: 16 }, (_, index) => backend.embed!([`text ${index}`])));
      expect(server.maxInFlight).toBe(8);
    });
  }
});
