/**
 * The layers of the code, bottom to top: a file may import files of its own layer and of layers below
 * it, never above. `tests/house-rules/layers.test.ts` holds the code to this list, and
 * `docs/architecture-drawing.ts` draws it into `docs/architecture.md`.
 */

/** One layer: a name, what it holds, and the folders (or single files) that make it up. */
export interface Layer {
  readonly name: string;
  readonly holds: string;
  readonly paths: readonly string[];
}

/** The library (`src/`), bottom to top. */
export const LIBRARY_LAYERS: readonly Layer[] = [
  { name: "foundation", holds: "typed errors, where the package's files are", paths: ["src/foundation"] },
  { name: "ontology", holds: "the ontology files and their zod schemas", paths: ["src/ontology"] },
  { name: "cmas", holds: "CMAS schemas, the dialogue-state update, paper format", paths: ["src/cmas"] },
  { name: "data", holds: "dataset loaders and views", paths: ["src/data"] },
  { name: "metrics", holds: "exact scorers and text metrics", paths: ["src/metrics"] },
  { name: "clinical", holds: "red flags, diagnoses and their criteria, the clinical note", paths: ["src/clinical"] },
  { name: "backends", holds: "the backend spec, providers, middleware", paths: ["src/backends"] },
  { name: "retrieval", holds: "few-shot exemplar retrieval", paths: ["src/retrieval"] },
  {
    name: "language",
    holds:
      "the shared clinical language: turns, module interfaces, lay terms, action signatures, repeat requests, the question reader, the history plan",
    paths: ["src/language"],
  },
  { name: "modules", holds: "NLU, policy, NLG and note modules: embedded, LLM, official", paths: ["src/modules"] },
  { name: "dialogue-manager", holds: "the xstate machine that chains the modules", paths: ["src/dialogue-manager"] },
  { name: "simulator", holds: "simulated patients, self-play, practice mode", paths: ["src/simulator"] },
  {
    name: "library",
    holds: "the library's public API and the backend contract kit",
    paths: ["src/index.ts", "src/testing"],
  },
];

/** The applications, above the library; the runner and the server side by side, the command above both. */
export const APPLICATION_LAYERS: readonly Layer[] = [
  { name: "eval", holds: "the benchmark runner: suites, scoring, reports", paths: ["eval"] },
  { name: "server", holds: "the chat server and its page", paths: ["server"] },
  { name: "cli", holds: "the anamnesis command", paths: ["cli"] },
  { name: "package", holds: "the package's entry: library and runner", paths: ["index.ts"] },
];

/** Everything that is layered, bottom to top. */
export const LAYERS: readonly Layer[] = [...LIBRARY_LAYERS, ...APPLICATION_LAYERS];

/** Layers that sit side by side: neither may import the other. */
export const SIDE_BY_SIDE: ReadonlyArray<readonly [string, string]> = [["eval", "server"]];

/**
 * Folders outside the layers, and what they may not import: the timing scripts and the tests each stand
 * on the layers and on the shared test support, never on each other; nothing in the layers imports them.
 */
export const OUTSIDE: ReadonlyArray<{ readonly path: string; readonly mayNotImport: readonly string[] }> = [
  { path: "bench", mayNotImport: ["tests"] },
  { path: "tests", mayNotImport: ["bench"] },
  { path: "test-support", mayNotImport: ["tests", "bench"] },
  { path: "docs", mayNotImport: ["tests", "bench"] },
];

/** The embedded engine, and the layers that must reach it only through the module builders. */
export const EMBEDDED_ENGINE = "src/modules/embedded";
export const NEVER_IMPORT_THE_ENGINE: readonly string[] = [
  "src/dialogue-manager",
  "src/simulator",
  "server",
  "src/language",
  "eval",
];
