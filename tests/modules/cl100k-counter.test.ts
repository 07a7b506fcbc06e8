import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";
import { describe, expect, it } from "vitest";
import { BUNDLED } from "../../src/foundation/package-paths.ts";
import { cl100kCounter, cl100kRanks } from "../../src/modules/prompting/cl100k-counter.ts";

/** The counter against js-tiktoken's own encoder on the same rank file: the same table, the same counts, the same refusal. */

const file = createRequire(import.meta.url)("js-tiktoken/ranks/cl100k_base") as TiktokenBPE;
const encoder = new Tiktoken(file);
const count = cl100kCounter(file);

/** Every utterance of the bundled MediTOD dialogues, every line of MTS-Dialog's validation file, and the prompt templates. */
function corpus(): string[] {
  const dialogues = JSON.parse(readFileSync(join(BUNDLED.meditod, "dialogs.json"), "utf8")) as Record<
    string,
    { utterances?: Array<{ text: string }> }
  >;
  const utterances = Object.values(dialogues).flatMap((dialogue) => (dialogue.utterances ?? []).map((u) => u.text));
  const mtsLines = readFileSync(join(BUNDLED.mtsDialog, "MTS-Dialog-ValidationSet.csv"), "utf8").split("\n");
  const prompts = readdirSync(BUNDLED.prompts)
    .filter((name) => name.endsWith(".txt"))
    .map((name) => readFileSync(join(BUNDLED.prompts, name), "utf8"));
  return [...utterances, ...mtsLines, ...prompts];
}

/** Texts whose pieces have no rank as a whole, so their bytes are merged: other scripts, emoji, odd spacing, long numbers. */
const ODD_TEXTS = [
  "",
  " ",
  "\n\n\r\n\t  \u00a0",
  "Schmerzen in der Brust seit drei Tagen; Übelkeit, Müdigkeit.",
  "胸痛が三日間続いています。咳も出ます。",
  "Лихорадка и кашель 🤒🤧 — 38.5°C, SpO₂ 94 %",
  "pneumonoultramicroscopicsilicovolcanoconiosis antidisestablishmentarianism",
  "123456789012345678901234567890 0.000001 1e-9 ½ ⅔",
  '{"positive_symptom":[{"value":"coughing","onset":"two weeks ago"}]}',
  "I've     had   a\tcough's   worth ... !!!??? ''' \"\"\" ```",
  "\u0301\u0300 combining marks e\u0301, zero\u200bwidth, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "a lone surrogate \ud83d here and \udc4d there",
  // Pieces where merging the rightmost of equally ranked pairs first would count one token more or fewer.
  "qqabazéqqzzxaüzzz",
  "qqxxabbqxxxqqzxxéqqqx",
  "ézzqqqqabqqéxxxxxa",
];

describe("the cl100k_base counter", () => {
  it("reads the rank file into js-tiktoken's table, entry for entry", () => {
    const ours = cl100kRanks(file.bpe_ranks);
    const theirs = (encoder as unknown as { rankMap: Map<string, number> }).rankMap;
    expect(ours.size).toBe(theirs.size);
    expect(ours.size).toBe(100_256);
    // Theirs are keyed by the bytes as comma-joined decimals ("104,101"), ours as one Latin-1 character a byte.
    let differing = 0;
    for (const [bytes, rank] of theirs)
      if (ours.get(String.fromCharCode(...bytes.split(",").map(Number))) !== rank) differing += 1;
    expect(differing).toBe(0);
  });

  it("counts every MediTOD utterance, MTS-Dialog line, prompt template and odd text as js-tiktoken does", () => {
    const texts = [...corpus(), ...ODD_TEXTS];
    expect(texts.length).toBeGreaterThan(1000);
    const differing = texts.filter((text) => count(text) !== encoder.encode(text).length);
    expect(differing).toEqual([]);
    // The whole corpus as one text: long pieces of whitespace and punctuation across utterances.
    const joined = texts.join("\n");
    expect(count(joined)).toBe(encoder.encode(joined).length);
  });

  it("refuses a special token with js-tiktoken's message", () => {
    const text = "the patient said <|endoftext|> and then <|fim_prefix|>";
    expect(() => encoder.encode(text)).toThrow("The text contains a special token that is not allowed: <|endoftext|>");
    expect(() => count(text)).toThrow("The text contains a special token that is not allowed: <|endoftext|>");
  });
});
