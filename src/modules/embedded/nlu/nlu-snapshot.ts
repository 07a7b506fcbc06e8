import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { deserialize, serialize } from "node:v8";
import { BUNDLED, PACKAGE_ROOT, RUNS_FROM_BUNDLE, bundledPath } from "../../../foundation/package-paths.ts";
import type { TrainingData } from "../training-data.ts";
import type { NluTables } from "./nlu-tables.ts";
import { PhraseIndex } from "./phrase-index.ts";
import { QuestionMemory } from "./question-memory.ts";

/**
 * The build's snapshot of the NLU's tables for the bundled sample's training dialogues. Building them
 * (the lexicon's tries, the training dialogues mined, the speller's stems) took about a twelfth of
 * `npm run bench`; `npm run build` builds them once and keeps them with V8's serializer in
 * `dist/nlu-snapshot/`, which reads back in a fraction of that time.
 *
 * The snapshot is used only when all of these hold, else the tables are built as before:
 * - the code runs from the build's bundle (`dist/bundle/`), built together with the snapshot (the
 *   tests and `npx tsx` always build, so a change in `src/` never meets a snapshot of the old code);
 * - the training dialogues are the bundled sample's whole `train` split;
 * - every file the tables could be made from (the ontology, the sample, MTS-Dialog's vocabulary) is as
 *   the build read it: the same size and modification time, or, when only the time differs (a copy, an
 *   installed tarball), the same SHA-256.
 */

/** Where the build writes the snapshot and its manifest. */
export const NLU_SNAPSHOT_DIR = join(PACKAGE_ROOT, "dist", "nlu-snapshot");

/** The classes whose instances the tables hold: V8's serializer keeps their fields, not their prototypes. */
const CLASSES: ReadonlyArray<{ readonly name: string; readonly prototype: object }> = [
  { name: "PhraseIndex", prototype: PhraseIndex.prototype },
  { name: "QuestionMemory", prototype: QuestionMemory.prototype },
];

/** Prototypes the serializer keeps by itself. */
const PLAIN: ReadonlySet<object | null> = new Set([
  Object.prototype,
  Array.prototype,
  Map.prototype,
  Set.prototype,
  RegExp.prototype,
  null,
]);

/** One input file as the build read it. */
interface InputFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly sha256: string;
}

interface Manifest {
  readonly inputs: readonly InputFile[];
}

/** The files the tables could be made from, absolute: the ontology, the MediTOD sample, MTS-Dialog's vocabulary. */
function inputPaths(): string[] {
  const jsonIn = (dir: string) =>
    readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => join(dir, name));
  return [...jsonIn(BUNDLED.ontology), ...jsonIn(BUNDLED.meditod), BUNDLED.mtsDialogVocabulary];
}

function sha256Of(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Whether an input is as the build read it (its time and size, else its content). */
function unchanged(input: InputFile): boolean {
  const path = bundledPath(input.path);
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats || stats.size !== input.size) return false;
  return stats.mtimeMs === input.mtimeMs || sha256Of(path) === input.sha256;
}

/** Whether the training dialogues are the bundled sample's `train` split. */
function isBundledTraining(training: TrainingData): boolean {
  return training.source?.dir === BUNDLED.meditod && training.source.split === "train";
}

/** Every object of the tables whose class the serializer would drop, by class name; throws on an unknown class. */
function classInstances(tables: NluTables): Record<string, object[]> {
  const found: Record<string, object[]> = Object.fromEntries(CLASSES.map(({ name }) => [name, []]));
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (typeof value === "function") throw new Error("the NLU snapshot cannot keep a function");
    if (typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    const prototype = Object.getPrototypeOf(value) as object | null;
    const known = CLASSES.find((entry) => entry.prototype === prototype);
    if (known) found[known.name]!.push(value);
    else if (!PLAIN.has(prototype)) throw new Error(`the NLU snapshot cannot keep a ${value.constructor.name}`);
    if (value instanceof Map) {
      for (const [key, item] of value) {
        visit(key);
        visit(item);
      }
    } else if (value instanceof Set) for (const item of value) visit(item);
    else for (const item of Object.values(value)) visit(item);
  };
  visit(tables);
  return found;
}

/** The tables as V8's serializer writes them, with the objects whose prototypes must be restored. */
export function serializeNluTables(tables: NluTables): Buffer {
  return serialize({ tables, instances: classInstances(tables) });
}

/** Tables that {@link serializeNluTables} wrote, prototypes restored. */
export function deserializeNluTables(buffer: Buffer): NluTables {
  const { tables, instances } = deserialize(buffer) as { tables: NluTables; instances: Record<string, object[]> };
  for (const { name, prototype } of CLASSES) {
    for (const instance of instances[name] ?? []) Object.setPrototypeOf(instance, prototype);
  }
  return tables;
}

/** Writes the snapshot of tables built from the bundled training dialogues, with its manifest (`npm run build`). */
export function writeNluSnapshot(tables: NluTables): void {
  mkdirSync(NLU_SNAPSHOT_DIR, { recursive: true });
  writeFileSync(join(NLU_SNAPSHOT_DIR, "tables.bin"), serializeNluTables(tables));
  const inputs = inputPaths().map((path): InputFile => {
    const { size, mtimeMs } = statSync(path);
    return { path: relative(PACKAGE_ROOT, path), size, mtimeMs, sha256: sha256Of(path) };
  });
  writeFileSync(join(NLU_SNAPSHOT_DIR, "manifest.json"), `${JSON.stringify({ inputs } satisfies Manifest, null, 2)}\n`);
}

/** Whether the build's snapshot exists and every file it was made from is as the build read it. */
export function nluSnapshotCurrent(): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(NLU_SNAPSHOT_DIR, "manifest.json"), "utf8")) as Manifest;
    const paths = inputPaths().map((path) => relative(PACKAGE_ROOT, path));
    const recorded = manifest.inputs.map((input) => input.path);
    return paths.join("\n") === recorded.join("\n") && manifest.inputs.every(unchanged);
  } catch {
    return false;
  }
}

/** The build's tables for these training dialogues, or undefined (then build them). */
export function snapshotNluTables(training: TrainingData): NluTables | undefined {
  if (!RUNS_FROM_BUNDLE || !isBundledTraining(training) || !nluSnapshotCurrent()) return undefined;
  try {
    return deserializeNluTables(readFileSync(join(NLU_SNAPSHOT_DIR, "tables.bin")));
  } catch {
    return undefined;
  }
}
