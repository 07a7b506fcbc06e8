/**
 * The red flags on the lay-words corpus (`data/red-flag-corpus/`): recall on the statements that
 * must fire each flag, and false alarms on the near-misses that must fire none, for the lay-word
 * rules alone, the semantic signal alone and both, per flag; then a chat turn's cost in-process (wall
 * and CPU time; the rules alone, and with the semantic signal warm) and one new sentence's encoding
 * (`./red-flags-chat-turns.ts`: the sample's non-test patient turns, whichever part is scored).
 *
 *   npx tsx bench/red-flags.ts                       # the development statements and the turn's cost
 *   npx tsx bench/red-flags.ts --turns 0             # the development statements only (for tuning)
 *   npx tsx bench/red-flags.ts --cross-validate      # and the semantic signal's honest estimate on them
 *   npx tsx bench/red-flags.ts --choose-thresholds   # the semantic thresholds, chosen on the development statements
 *   npx tsx bench/red-flags.ts --turns 0 --misses    # and each development statement the rules (or the learned model) get wrong
 *   npx tsx bench/red-flags.ts --encoder use-lite    # USE-lite itself, under its own thresholds, instead of the
 *                                                    # bundled static encoder (--table FILE: another static table)
 *   npx tsx bench/red-flags.ts --part test-v2,test-v3,test-v4,test-v5,test-v6,test-v7,test-v8,test-v9,test-v10 --json  # the held-back test parts too: the figures reported
 *                                                    # (tables on stderr, JSON on stdout; --turns N, default 200)
 *
 * The development statements are `development.json`, `test.json` (the first test part, used for
 * development after it was scored once) and `development-v3.json`; `test-v2.json` to `test-v10.json`,
 * written by people who had not seen the rules, are held back and read only under `--part`. The semantic signal compares with the
 * development statements, so a development statement is scored leave-one-out (its own statement left
 * out); a leave-one-out figure is optimistic where the thresholds were chosen on the same statements,
 * so `--cross-validate` also scores each fold of two groupings (by file, and five folds by a hash of
 * the statement within each flag and kind) with the fold's statements neither compared with nor used
 * to choose the thresholds (chosen as `--choose-thresholds` does, on the other folds). The thresholds
 * are kept in `ontology/red-flags.json`. "Rules" are the flags' stated criteria over the patient's
 * words, as the chat reads them; the CMAS criteria need an NLU and are measured by the consultation
 * suites. Without the encoder the semantic columns say so and the rules are still scored.
 */
import { scriptArgs } from "./script-args.ts";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { loadRedFlags } from "../src/clinical/red-flags.ts";
import {
  bundledSemanticRedFlags,
  corpusAnchors,
  DEFAULT_SENTENCE_ENCODER,
  DEVELOPMENT_FILES,
  SENTENCE_ENCODERS,
  statementText,
  type SentenceEncoderName,
} from "../src/clinical/red-flags-encoder.ts";
import { loadStaticEncoder } from "../src/clinical/static-sentence-encoder.ts";
import {
  flagsOver,
  SemanticRedFlags,
  type SemanticThresholds,
  type SentenceEncoder,
  type SentenceScores,
} from "../src/clinical/red-flags-semantic.ts";
import type { SignsFound } from "../src/clinical/red-flag-signs.ts";
import { bundledPath } from "../src/foundation/package-paths.ts";
import { loadLearnedRedFlags } from "../src/clinical/red-flags-learned.ts";
import { learnedOverrulesWords, turnsReadBy } from "../src/clinical/learned-second-opinion.ts";
import { defaultCacheDir } from "../src/backends/response-cache.ts";
import { chatTurnCosts } from "./red-flags-chat-turns.ts";

type Statement = string | string[];
interface CorpusPart {
  readonly flags: Record<string, { fires: Statement[]; nearMisses: Statement[] }>;
}
/** One statement of the corpus, read by the rules once. */
interface Entry {
  readonly flag: string;
  readonly mustFire: boolean;
  readonly statement: Statement;
  readonly file: string;
  readonly text: string;
  readonly turns: readonly string[];
  readonly byRules: ReadonlySet<string>;
  /** The rules' flags less those the learned model's second opinion sets aside (`src/clinical/learned-second-opinion.ts`). */
  readonly byRulesKept: ReadonlySet<string>;
  /** The flags the bundled learned model fires over the statement's turns (none when it is not loaded). */
  readonly byLearned: ReadonlySet<string>;
  readonly signs: SignsFound;
}
/**
 * The signals scored: the rules, the nearest statements (`semantic`), both, the learned model, the
 * rules with the learned model (`rules+learned`: the chat's default), and all three. With the learned
 * model (`rules+learned`, `every`) the rules' readings it sets aside are left out, as in the chat.
 */
type Signal = "rules" | "semantic" | "both" | "learned" | "rules+learned" | "every";
const SIGNALS: readonly Signal[] = ["rules", "semantic", "both", "learned", "rules+learned", "every"];
/** Per flag and signal: statements that fired their flag of all, near-misses that fired any flag of all. */
interface Tally {
  caught: number;
  fires: number;
  falseAlarms: number;
  nearMisses: number;
}
type Table = Map<string, Record<Signal, Tally>>;
/** Each statement's sentences' scores against a signal's statements (null: the signal is off). */
type ScoresByEntry = ReadonlyMap<Entry, readonly SentenceScores[]> | null;

/** The held-back test parts: read only when asked for by name. */
const HELD_BACK: readonly string[] = [
  "test-v2",
  "test-v3",
  "test-v4",
  "test-v5",
  "test-v6",
  "test-v7",
  "test-v8",
  "test-v9",
  "test-v10",
];

/** A later development part's file name, e.g. `development-v6.json` (its number: 6). */
const LATER_PART = /^development-v(\d+)\.json$/;

/**
 * The development parts that are not among the semantic signal's statements ({@link DEVELOPMENT_FILES}),
 * in order: the rules were developed on them, and the semantic signal compares their sentences with the
 * first parts' statements (so its column there is not leave-one-out but out of sample).
 */
const LATER_DEVELOPMENT_FILES: readonly string[] = readdirSync(bundledPath("data", "red-flag-corpus"))
  .map((name) => LATER_PART.exec(name))
  .filter((match): match is RegExpExecArray => match !== null)
  .sort((a, b) => Number(a[1]) - Number(b[1]))
  .map((match) => match[0].replace(/\.json$/, ""))
  .filter((name) => !(DEVELOPMENT_FILES as readonly string[]).includes(name));
const { values } = scriptArgs({
  options: {
    part: { type: "string", default: "development" },
    json: { type: "boolean", default: false },
    "choose-thresholds": { type: "boolean", default: false },
    "cross-validate": { type: "boolean", default: false },
    turns: { type: "string", default: "200" },
    misses: { type: "boolean", default: false },
    encoder: { type: "string", default: DEFAULT_SENTENCE_ENCODER },
    table: { type: "string" },
  },
});
const rules = loadRedFlags();
/** The bundled learned model, or null (with why, on stderr) when it cannot be loaded. */
const learnedModel = await loadLearnedRedFlags().catch((error: unknown) => {
  console.error(`learned red-flag model off: ${error instanceof Error ? error.message : String(error)}`);
  return null;
});
const BULK_WAIT_MS = 3_600_000;
/** The tables: on stdout, or on stderr under `--json` (stdout is then the JSON alone, for `bench/measurements.ts`). */
const print = (line: string): void => void (values.json ? console.error(line) : console.log(line));
const corpusFile = (name: string): string => bundledPath("data", "red-flag-corpus", `${name}.json`);

/** The flags the learned model fires over some turns, read as the chat reads them: each turn with the turns before it. */
function learnedFlags(turns: readonly string[]): Set<string> {
  const fired = new Set<string>();
  if (!learnedModel) return fired;
  for (let end = 1; end <= turns.length; end++) {
    const heard = rules.signs.readAll(turns.slice(0, end));
    for (const match of learnedModel.matchesOfLastTurn(turns.slice(0, end)))
      if (!rules.learnedSetAside(match.flag, match.text) && !rules.learnedNeedsUnmet(match.flag, heard))
        fired.add(match.flag);
  }
  return fired;
}

/** The statements of corpus files, each read by the rules and the learned model. */
function entriesOf(files: readonly string[]): Entry[] {
  return files.flatMap((file) => {
    const part = JSON.parse(readFileSync(corpusFile(file), "utf8")) as CorpusPart;
    return Object.entries(part.flags).flatMap(([flag, { fires, nearMisses }]) =>
      [...fires.map((s) => [s, true] as const), ...nearMisses.map((s) => [s, false] as const)].map(
        ([statement, mustFire]) => {
          const turns = typeof statement === "string" ? [statement] : statement;
          const byRules = new Set(rules.evaluateSaid(turns).map((fired) => fired.id));
          const signs = rules.signs.readAll(turns);
          const byLearned = learnedFlags(turns);
          const read = turnsReadBy(rules, learnedModel, turns);
          const byRulesKept = new Set([...byRules].filter((id) => !learnedOverrulesWords(rules, id, read)));
          const text = statementText(statement);
          return { flag, mustFire, statement, file, text, turns, byRules, byRulesKept, byLearned, signs };
        },
      ),
    );
  });
}

/** Each statement's sentences' scores; `leaveOut` skips the statement's own (leave-one-out). */
function scoresOf(entries: readonly Entry[], semantic: SemanticRedFlags, leaveOut: boolean): ScoresByEntry {
  return new Map(
    entries.map((entry) => [
      entry,
      entry.turns.flatMap((turn) =>
        semantic.scoresOf(turn, leaveOut ? entry.text : undefined).map(({ scores }) => scores),
      ),
    ]),
  );
}

/** The flags the semantic signal fires on a statement: over the thresholds, and its flag's subject said. */
function semanticFired(entry: Entry, scores: ScoresByEntry, thresholds: SemanticThresholds): Set<string> {
  const fired = new Set<string>();
  for (const sentence of scores?.get(entry) ?? [])
    for (const flag of flagsOver(sentence, thresholds)) if (rules.subjectHeard(flag, entry.signs)) fired.add(flag);
  return fired;
}

const emptyRow = (): Record<Signal, Tally> =>
  Object.fromEntries(
    SIGNALS.map((signal) => [signal, { caught: 0, fires: 0, falseAlarms: 0, nearMisses: 0 }]),
  ) as Record<Signal, Tally>;

/** Per flag (and `all`) and signal, the tallies of some statements; added to `into` when given. */
function score(entries: readonly Entry[], scores: ScoresByEntry, thresholds: SemanticThresholds, into?: Table): Table {
  const table: Table = into ?? new Map<string, Record<Signal, Tally>>();
  const row = (flag: string) => table.get(flag) ?? table.set(flag, emptyRow()).get(flag)!;
  for (const entry of entries) {
    const bySemantic = semanticFired(entry, scores, thresholds);
    const both = new Set([...entry.byRules, ...bySemantic]);
    const fired = {
      rules: entry.byRules,
      semantic: bySemantic,
      both,
      learned: entry.byLearned,
      "rules+learned": new Set([...entry.byRulesKept, ...entry.byLearned]),
      every: new Set([...entry.byRulesKept, ...bySemantic, ...entry.byLearned]),
    };
    for (const signal of SIGNALS) {
      for (const tally of [row(entry.flag)[signal], row("all")[signal]]) {
        if (entry.mustFire) {
          tally.fires += 1;
          if (fired[signal].has(entry.flag)) tally.caught += 1;
        } else {
          tally.nearMisses += 1;
          if (fired[signal].size > 0) tally.falseAlarms += 1;
        }
      }
    }
  }
  return table;
}

const ratio = (a: number, b: number): string => (b === 0 ? "—" : `${a}/${b} ${((100 * a) / b).toFixed(0)}%`);

function printTable(title: string, table: Table, semanticOn: boolean): void {
  print(`\n${title} — recall (statements that fired their flag) · false alarms (near-misses that fired any flag)`);
  print(["flag".padEnd(44), ...SIGNALS.map((signal) => signal.padEnd(30))].join(""));
  for (const [flag, row] of [...table].sort(([a], [b]) => (a === "all" ? 1 : b === "all" ? -1 : a.localeCompare(b)))) {
    const cells = SIGNALS.map((signal) =>
      signal === "semantic" && !semanticOn
        ? "off".padEnd(30)
        : `${ratio(row[signal].caught, row[signal].fires)} · ${ratio(row[signal].falseAlarms, row[signal].nearMisses)}`.padEnd(
            30,
          ),
    );
    print([flag.padEnd(44), ...cells].join(""));
  }
}

/**
 * Each development statement the rules get wrong, with the signs they found: a missed statement, or a
 * near-miss that fired (with the flags). Never for a held-back part, whose statements stay unread.
 */
function printMisses(entries: readonly Entry[]): void {
  const said = (entry: Entry) => JSON.stringify(entry.statement);
  const signs = (entry: Entry) => [...entry.signs].map(([sign, words]) => `${sign}="${words}"`).join(" ") || "none";
  const learned = (entry: Entry) => `learned: ${[...entry.byLearned].join(",") || "none"}`;
  print("\ndevelopment statements the rules get wrong (signs found after each, and what the learned model fires):");
  for (const entry of entries) {
    if (entry.mustFire && !entry.byRules.has(entry.flag))
      print(`MISSED ${entry.flag} [${entry.file}] ${said(entry)}\n    signs: ${signs(entry)}; ${learned(entry)}`);
    if (!entry.mustFire && entry.byRules.size > 0)
      print(
        `FALSE ALARM ${[...entry.byRules].join(",")} (${entry.flag}) [${entry.file}] ${said(entry)}\n    signs: ${signs(entry)}; ${learned(entry)}`,
      );
    if (!entry.mustFire && entry.byRules.size === 0 && entry.byLearned.size > 0)
      print(`LEARNED FALSE ALARM ${[...entry.byLearned].join(",")} (${entry.flag}) [${entry.file}] ${said(entry)}`);
  }
}

/** The chat turn's costs as a table: p50 and p95 of wall time and of CPU time (every thread). */
function printCosts(costs: Awaited<ReturnType<typeof chatTurnCosts>>): void {
  const LABELS: Record<string, string> = {
    noRedFlags: "chat turn, no red flags (the engine)",
    rulesOnly: "chat turn, rules alone",
    screening: "red-flag screening alone (rules)",
    withSemantic: "chat turn, rules + semantic (warm)",
    oneSentence: "one new sentence encoded",
  };
  print("\nin-process cost (ms) — p50 / p95 of wall time · CPU time (every thread)");
  for (const [name, cost] of Object.entries(costs)) {
    const cells = [cost.wallMs, cost.cpuMs].map(({ p50, p95 }) => `${p50} / ${p95}`.padEnd(18));
    print([(LABELS[name] ?? name).padEnd(38), ...cells, `(${cost.turns})`].join(""));
  }
}

/**
 * The thresholds of the best leave-one-out figures on some statements: the most statements caught
 * with no near-miss fired, ties to the higher thresholds. Not "≤ 2 %": a false-alarm rate reached on
 * the statements that chose it was about four times higher on statements held out
 * (`--cross-validate`), so the choice leaves that room.
 */
function chooseThresholds(entries: readonly Entry[], scores: ScoresByEntry): SemanticThresholds {
  let best: { thresholds: SemanticThresholds; caught: number } | null = null;
  for (let similarity = 0.5; similarity <= 0.951; similarity += 0.01) {
    for (let margin = -0.1; margin <= 0.201; margin += 0.01) {
      const thresholds = { similarity: Number(similarity.toFixed(2)), margin: Number(margin.toFixed(2)) };
      const all = score(entries, scores, thresholds).get("all")!.semantic;
      if (all.falseAlarms > 0) continue;
      if (!best || all.caught >= best.caught) best = { thresholds, caught: all.caught };
    }
  }
  return best?.thresholds ?? { similarity: 1, margin: 2 };
}

/** An encoder that encodes each text once, so the folds' signals share one encoding of the corpus. */
function rememberingEncoder(encoder: SentenceEncoder): SentenceEncoder {
  const known = new Map<string, Float32Array>();
  return {
    model: encoder.model,
    async encode(sentences) {
      const fresh = [...new Set(sentences.filter((sentence) => !known.has(sentence)))];
      if (fresh.length > 0) (await encoder.encode(fresh)).forEach((vector, index) => known.set(fresh[index]!, vector));
      return sentences.map((sentence) => known.get(sentence)!);
    },
  };
}

/** The folds of the cross-validation: by file, and five by a hash of the statement within each flag and kind. */
function foldsOf(entries: readonly Entry[]): Array<{ name: string; folds: Entry[][] }> {
  const byFile = DEVELOPMENT_FILES.map((file) => entries.filter((entry) => entry.file === file));
  const hashed: Entry[][] = [[], [], [], [], []];
  const groups = new Map<string, Entry[]>();
  for (const entry of entries) {
    const key = `${entry.flag}\n${entry.mustFire}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  for (const group of groups.values()) {
    const key = (entry: Entry) => createHash("sha256").update(`fold\n${entry.text}`).digest("hex");
    [...group]
      .sort((a, b) => key(a).localeCompare(key(b)))
      .forEach((entry, index) => hashed[index % hashed.length]!.push(entry));
  }
  return [
    { name: `by file (${DEVELOPMENT_FILES.map((file) => `${file}.json`).join(" / ")})`, folds: byFile },
    { name: "5 folds by statement hash within flag and kind", folds: hashed },
  ];
}

/** One grouping's held-out tallies, each fold's thresholds chosen on the other folds (leave-one-out). */
async function crossValidate(folds: readonly Entry[][], loadEncoder: () => Promise<SentenceEncoder>): Promise<Table> {
  const table: Table = new Map();
  const examples = rules.flags.map((flag) => ({ flag: flag.id, text: flag.example.said }));
  for (const heldOut of folds) {
    const training = folds.filter((fold) => fold !== heldOut).flat();
    const flags: CorpusPart["flags"] = {};
    for (const entry of training) {
      const into = (flags[entry.flag] ??= { fires: [], nearMisses: [] });
      (entry.mustFire ? into.fires : into.nearMisses).push(entry.statement);
    }
    const semantic = new SemanticRedFlags({
      loadEncoder,
      anchors: [...corpusAnchors({ flags }), ...examples],
      // Only the anchors' scores are read: the fold's thresholds are chosen below.
      thresholds: rules.file.semantic,
      cacheDir: null,
      waitMs: BULK_WAIT_MS,
    });
    await semantic.prepare([...training, ...heldOut].flatMap((entry) => entry.turns));
    const thresholds = chooseThresholds(training, scoresOf(training, semantic, true));
    print(`  fold of ${heldOut.length}: thresholds ${JSON.stringify(thresholds)}`);
    score(heldOut, scoresOf(heldOut, semantic, false), thresholds, table);
  }
  return table;
}

/** The held-back parts asked for (`--part test-v2,test-v3`), or one clear line and exit code 2 when one is not such a part or not there. */
function heldBackFiles(): string[] {
  if (values.part === "development") return [];
  const parts = values.part.split(",").map((part) => part.trim());
  for (const part of parts) {
    if (!HELD_BACK.includes(part)) {
      console.error(`bench/red-flags.ts: --part must be development or some of ${HELD_BACK.join(", ")}, not '${part}'`);
      process.exit(2);
    }
    if (!existsSync(corpusFile(part))) {
      console.error(`bench/red-flags.ts: ${corpusFile(part)} does not exist (a held-back test part)`);
      process.exit(2);
    }
  }
  return parts;
}

/**
 * The encoder `--encoder` names ({@link SENTENCE_ENCODERS}; `--table FILE` gives the static encoder
 * another table), and its loader; one clear line and exit code 2 for another name.
 */
function chosenEncoder(): { name: SentenceEncoderName; load: () => Promise<SentenceEncoder> } {
  const name = values.encoder;
  if (!(name in SENTENCE_ENCODERS)) {
    console.error(
      `bench/red-flags.ts: --encoder must be one of ${Object.keys(SENTENCE_ENCODERS).join(", ")}, not '${name}'`,
    );
    process.exit(2);
  }
  const known = name as SentenceEncoderName;
  const table = values.table;
  return { name: known, load: known === "static" && table ? () => loadStaticEncoder(table) : SENTENCE_ENCODERS[known] };
}

/**
 * The run's semantic signal with an encoder, and the loader it shares with every other signal of the run
 * (the folds'), each text encoded once. The corpus is encoded in bulk: the bench waits for it, where a
 * chat turn would go on without it.
 */
function runSignal(encoder: ReturnType<typeof chosenEncoder>): {
  semantic: SemanticRedFlags;
  loadEncoder: () => Promise<SentenceEncoder>;
} {
  let shared: Promise<SentenceEncoder> | null = null;
  const loadEncoder = () => (shared ??= encoder.load().then(rememberingEncoder));
  const semantic = bundledSemanticRedFlags(rules, {
    cacheDir: defaultCacheDir(process.env),
    waitMs: BULK_WAIT_MS,
    encoder: encoder.name,
    loadEncoder,
  });
  return { semantic, loadEncoder };
}

async function main(): Promise<void> {
  const heldBack = heldBackFiles();
  const encoder = chosenEncoder();
  const { semantic, loadEncoder } = runSignal(encoder);
  const on = await semantic.warmUp();
  if (!on) print(`semantic signal off: ${semantic.status().reason}`);
  const development = entriesOf(DEVELOPMENT_FILES);
  if (values.misses) printMisses([...development, ...entriesOf(LATER_DEVELOPMENT_FILES)]);
  if (on) await semantic.prepare(development.flatMap((entry) => entry.turns));
  const devScores = on ? scoresOf(development, semantic, true) : null;
  const thresholds = values["choose-thresholds"] && on ? chooseThresholds(development, devScores) : semantic.thresholds;
  if (values["choose-thresholds"] && on) print(`chosen on the development statements: ${JSON.stringify(thresholds)}`);
  const dev = score(development, devScores, thresholds);
  printTable(
    `development statements: ${DEVELOPMENT_FILES.map((file) => `${file}.json`).join(" + ")} (semantic: leave-one-out; learned: trained on them, in sample: bench/red-flags-learned.ts cross-validates it)`,
    dev,
    on,
  );
  const result: Record<string, unknown> = {
    thresholds,
    semantic: semantic.status(),
    learned: learnedModel
      ? { model: learnedModel.model.header.model, threshold: learnedModel.model.header.threshold }
      : null,
    development: Object.fromEntries(dev),
  };
  if (values["cross-validate"] && on) {
    const crossValidation: Record<string, unknown> = {};
    for (const { name, folds } of foldsOf(development)) {
      print(`\ncross-validation, ${name}:`);
      const table = await crossValidate(folds, loadEncoder);
      printTable(`cross-validation, ${name} (each fold held out)`, table, on);
      crossValidation[name] = Object.fromEntries(table);
    }
    result.crossValidation = crossValidation;
  }
  const later: Record<string, unknown> = {};
  for (const part of LATER_DEVELOPMENT_FILES) {
    const laterPart = entriesOf([part]);
    if (on) await semantic.prepare(laterPart.flatMap((entry) => entry.turns));
    const table = score(laterPart, on ? scoresOf(laterPart, semantic, false) : null, thresholds);
    printTable(`later development part (${part}.json; rules developed on it, learned trained on it)`, table, on);
    later[part] = Object.fromEntries(table);
  }
  result.laterDevelopment = later;
  const tests: Record<string, unknown> = {};
  for (const part of heldBack) {
    const testPart = entriesOf([part]);
    if (on) await semantic.prepare(testPart.flatMap((entry) => entry.turns));
    const test = score(testPart, on ? scoresOf(testPart, semantic, false) : null, thresholds);
    printTable(`held-back test part (${part}.json)`, test, on);
    tests[part] = Object.fromEntries(test);
  }
  if (heldBack.length > 0) result.tests = tests;
  if (Number(values.turns) > 0 && !values["choose-thresholds"]) {
    result.chatTurn = await chatTurnCosts(rules, on ? encoder : null, Number(values.turns));
    printCosts(result.chatTurn as Awaited<ReturnType<typeof chatTurnCosts>>);
  }
  if (values.json) console.log(JSON.stringify(result));
}

await main();
