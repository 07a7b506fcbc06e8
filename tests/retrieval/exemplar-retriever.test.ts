import { describe, expect, it } from "vitest";
import { Bm25Index, bm25Terms } from "../../src/retrieval/bm25.ts";
import { DenseRetriever, LexicalRetriever, type RetrievalDocument } from "../../src/retrieval/exemplar-retriever.ts";
import type { ChatBackend } from "../../src/backends/spec.ts";

const documents: RetrievalDocument[] = [
  { id: "a:1", dialogueId: "a", text: "doctor: any chest pain?\npatient: no chest pain at all" },
  { id: "a:3", dialogueId: "a", text: "doctor: do you smoke?\npatient: a pack a day for ten years" },
  { id: "b:1", dialogueId: "b", text: "doctor: any cough?\npatient: yes a dry cough, worse at night" },
  { id: "b:3", dialogueId: "b", text: "doctor: any fever or chills?\npatient: some chills last night" },
];

describe("BM25", () => {
  it("drops stopwords and fillers and lower-cases", () => {
    expect(bm25Terms("Uh, I've had a COUGH for the past week.")).toEqual(["ve", "cough", "past", "week"]);
  });

  it("ranks by term rarity and frequency, ties to the earlier document", () => {
    const index = new Bm25Index(documents.map((document) => document.text));
    expect(index.search("dry cough at night", 2).map((hit) => hit.index)).toEqual([2, 3]);
    expect(index.search("chest pain", 1)[0]!.index).toBe(0);
    expect(index.search("nothing matches here", 3)).toEqual([]);
    const [first, second] = new Bm25Index(["asthma inhaler", "asthma inhaler"]).search("inhaler", 2);
    expect(first!.index).toBe(0);
    expect(second!.score).toBe(first!.score);
  });
});

describe("exemplar retrievers", () => {
  it("lexical: best first, never from the excluded dialogue, filled up to k in corpus order", async () => {
    const retriever = new LexicalRetriever(documents);
    expect(await retriever.retrieve("patient: my cough is dry", 1)).toEqual([2]);
    expect(await retriever.retrieve("patient: my cough is dry", 2, "b")).toEqual([0, 1]);
    expect(await retriever.retrieve("zzz", 3)).toEqual([0, 1, 2]);
  });

  it("dense: cosine similarity of the backend's embeddings", async () => {
    // A toy embedding: counts of three marker words.
    const embed = (text: string) => ["cough", "chest", "smoke"].map((word) => (text.includes(word) ? 1 : 0) + 0.01);
    const calls: number[] = [];
    const backend = {
      id: "fake:embedder",
      capabilities: { structuredOutput: false, logprobs: false, embeddings: true },
      embed: async (texts: readonly string[]) => {
        calls.push(texts.length);
        return {
          embeddings: texts.map(embed),
          usage: { inputTokens: 0, outputTokens: 0 },
          latencyMs: 0,
          cached: false,
        };
      },
    } as unknown as ChatBackend;
    const retriever = new DenseRetriever(documents, backend);
    expect(retriever.id).toBe("dense:fake:embedder");
    expect((await retriever.retrieve("a chest complaint", 1))[0]).toBe(0);
    expect((await retriever.retrieve("do you smoke", 1, "a"))[0]).not.toBe(1);
    // Documents are embedded once; each query once.
    expect(calls).toEqual([4, 1, 1]);
    expect(
      () =>
        new DenseRetriever(documents, {
          ...backend,
          capabilities: { ...backend.capabilities, embeddings: false },
          embed: undefined,
        }),
    ).toThrow(/embeddings/);
  });
});
