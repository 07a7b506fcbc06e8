import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import type { DialogueTurn, NluModule } from "../../../../src/language/module-interfaces.ts";
import {
  deserializeNluTables,
  nluSnapshotCurrent,
  serializeNluTables,
  snapshotNluTables,
} from "../../../../src/modules/embedded/nlu/nlu-snapshot.ts";
import { buildNluTables } from "../../../../src/modules/embedded/nlu/nlu-tables.ts";
import { embeddedNluFrom, nluResourcesFrom } from "../../../../src/modules/embedded/nlu.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";

const training = loadTrainingData(loadMeditod(), "train");
const built = buildNluTables(training);
const restored = deserializeNluTables(serializeNluTables(built));

/** The first path at which two object graphs differ (value, key order, prototype or sharing), or null. */
function firstDifference(a: unknown, b: unknown, path = "tables", pairs = new Map<object, object>()): string | null {
  if (typeof a !== "object" || a === null)
    return Object.is(a, b) ? null : `${path}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
  if (typeof b !== "object" || b === null) return `${path}: object ≠ ${JSON.stringify(b)}`;
  if (pairs.has(a)) return pairs.get(a) === b ? null : `${path}: a shared object is not shared`;
  pairs.set(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: prototype ${a.constructor.name}`;
  if (a instanceof RegExp) {
    const other = b as RegExp;
    return a.source === other.source && a.flags === other.flags ? null : `${path}: /${a.source}/ ≠ /${other.source}/`;
  }
  const entriesOf = (value: object): Array<[unknown, unknown]> =>
    value instanceof Map
      ? [...(value as Map<unknown, unknown>)]
      : value instanceof Set
        ? [...(value as Set<unknown>)].map((item, index) => [index, item])
        : Object.entries(value);
  const [left, right] = [entriesOf(a), entriesOf(b)];
  if (left.length !== right.length) return `${path}: ${left.length} entries ≠ ${right.length}`;
  for (const [index, [key, value]] of left.entries()) {
    const [otherKey, other] = right[index]!;
    const where = `${path}[${String(key)}]`;
    const difference = firstDifference(key, otherKey, where, pairs) ?? firstDifference(value, other, where, pairs);
    if (difference) return difference;
  }
  return null;
}

/** Every patient turn of the bundled sample, with the turns before it. */
function samplePatientTurns(): Array<{ history: DialogueTurn[]; utterance: string }> {
  const turns: Array<{ history: DialogueTurn[]; utterance: string }> = [];
  for (const dialogue of loadMeditod().dialogues.values()) {
    const history: DialogueTurn[] = [];
    for (const utterance of dialogue.utterances) {
      if (utterance.speaker === "patient") turns.push({ history: [...history], utterance: utterance.text });
      history.push({ speaker: utterance.speaker, text: utterance.text });
    }
  }
  return turns;
}

async function readings(nlu: NluModule, turns: ReturnType<typeof samplePatientTurns>): Promise<unknown[]> {
  const results = [];
  for (const turn of turns) {
    const { latencyMs: _latency, ...result } = await nlu.understand(turn);
    results.push(result);
  }
  return results;
}

describe("the build's snapshot of the NLU's tables", () => {
  it("reads back the very tables it was written from: values, order, prototypes and shared objects", () => {
    expect(firstDifference(built, restored)).toBeNull();
    expect(restored.lexicon.concepts.entries).toBe(built.lexicon.concepts.entries);
    expect(restored.mined.memory.size).toBe(built.mined.memory.size);
  });

  it("and the NLU over it reads every patient turn of the sample, and misspelt ones, as the NLU built from the dialogues", async () => {
    const turns = [
      ...samplePatientTurns(),
      {
        history: [{ speaker: "doctor" as const, text: "What brings you in today?" }],
        utterance: "I have a bad couhg and diarrea, no feverr",
      },
      {
        history: [{ speaker: "doctor" as const, text: "Do you smoke?" }],
        utterance: "I quit last year, used to smoke a pack a day",
      },
    ];
    expect(turns.length).toBeGreaterThan(40);
    const fromDialogues = await readings(embeddedNluFrom(nluResourcesFrom(built)), turns);
    const fromSnapshot = await readings(embeddedNluFrom(nluResourcesFrom(restored)), turns);
    expect(fromSnapshot).toEqual(fromDialogues);
    expect(fromDialogues.some((result) => JSON.stringify(result).includes("cough"))).toBe(true);
  });

  it("refuses tables it could not restore: an object of another class, a function", () => {
    expect(() => serializeNluTables({ ...built, extra: new Date(0) } as typeof built)).toThrow(
      "the NLU snapshot cannot keep a Date",
    );
    expect(() => serializeNluTables({ ...built, extra: () => 1 } as typeof built)).toThrow(
      "the NLU snapshot cannot keep a function",
    );
  });

  it("is current after a build (the tests run after one), and never used by code run from the sources", () => {
    expect(nluSnapshotCurrent()).toBe(true);
    expect(snapshotNluTables(training)).toBeUndefined();
  });
});
