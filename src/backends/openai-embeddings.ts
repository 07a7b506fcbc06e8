/**
 * The `openai:` provider's embeddings (`POST {baseUrl}/embeddings`), through LangChain's
 * `OpenAIEmbeddings` over the OpenAI SDK. A module of its own, loaded on the first `embed`: loading
 * LangChain costs the process about 0.7 s of CPU, which a run that only chats never pays.
 */
import { OpenAIEmbeddings } from "@langchain/openai";
import { attemptFetch, runCountedAttempt } from "./langchain.ts";
import type { ModelDriver } from "./spec.ts";

/** Where and as whom embeddings are asked for. */
interface EmbeddingsConnection {
  readonly baseURL: string;
  readonly apiKey: string;
}

/** The driver's `embed` for `model`: one attempt, its input tokens as the server counted them. */
export function openAIEmbedder(
  model: string,
  { baseURL, apiKey }: EmbeddingsConnection,
): NonNullable<ModelDriver["embed"]> {
  const client = new OpenAIEmbeddings({
    model,
    apiKey,
    configuration: { baseURL, fetch: attemptFetch },
    maxRetries: 0,
    // Embed the texts as given: LangChain would otherwise replace every newline with a space.
    stripNewLines: false,
    // Our semaphore sets the concurrency; LangChain's own queue would hold embeddings to 2 at once.
    maxConcurrency: Infinity,
  });
  return async (texts, signal) => {
    const { value: vectors, embeddingTokens } = await runCountedAttempt(signal, () =>
      client.embedDocuments([...texts]),
    );
    return { embeddings: vectors, usage: { inputTokens: embeddingTokens, outputTokens: 0 } };
  };
}
