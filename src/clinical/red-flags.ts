import { dialogueStateSchema, describeIssues, type DialogueState } from "../cmas/schemas.ts";
import { loadOntologyFile, parseOntologyFile, type OntologyFile } from "../ontology/ontology-files.ts";
import { criterionProblem, evidenceFor } from "./criteria.ts";
import {
  SignReader,
  expandTerms,
  normaliseSaid,
  positiveSignsOf,
  signsOf,
  statedEvidence,
  type SignsFound,
} from "./red-flag-signs.ts";

/**
 * Red flags (`ontology/red-flags.json`): findings in a history that need urgent care. Each flag fires
 * on two readings, either enough: its `criteria` over the tracked CMAS state (so it fires whichever
 * NLU, embedded or an LLM, filled the state), and its `stated` criteria over the signs in the
 * patient's own words (`./red-flag-signs.ts`), so an emergency said in lay words fires even when no
 * NLU maps it to CMAS. The file is validated on load against the CMAS ontology; every flag's example
 * state must fire it, every sign's examples must show that sign, and every flag's example sentence
 * must fire its stated criteria. Criteria are written in the language of `./criteria.ts`.
 */

export type RedFlagsFile = OntologyFile<"red-flags.json">;
export type RedFlagDefinition = RedFlagsFile["flags"][number];
export type Urgency = RedFlagDefinition["urgency"];

/** A flag that fires on a state, with the evidence that made it fire. */
export interface RedFlag {
  readonly id: string;
  readonly label: string;
  readonly urgency: Urgency;
  readonly advice: string;
  /** `status slot: value` of each finding that matched (`positive symptom: chest pain`), or the words said (`said: "crushing pain"`). */
  readonly evidence: readonly string[];
}

function fail(message: string): never {
  throw new Error(`ontology/red-flags.json: ${message}`);
}

/** The red flags as compiled data, with the evaluation over a state and over what the patient said. */
export class RedFlagRules {
  readonly flags: readonly RedFlagDefinition[];
  readonly signs: SignReader;
  /** Per flag, the signs that name what it is about: its stated criteria's signs, not negated, less the modifiers. */
  private readonly subjectSigns: ReadonlyMap<string, readonly string[]>;

  constructor(readonly file: RedFlagsFile) {
    this.flags = file.flags;
    this.signs = new SignReader(file.signs, file.terms, file.respellings, file.otherSubjects.patterns);
    const modifiers = new Set(file.semantic.modifierSigns);
    this.subjectSigns = new Map(
      file.flags.map((flag) => [
        flag.id,
        flag.stated ? positiveSignsOf(flag.stated).filter((sign) => !modifiers.has(sign)) : [],
      ]),
    );
  }

  /**
   * Whether the patient has said something of what a flag is about: one of its subject signs, in any
   * turn. The semantic signal fires a flag only then, so a sentence that merely sounds like an
   * emergency's topic ("a painless lump on my testicle", "my period is a few days late") does not
   * fire it: measured on the corpus, this halved its false alarms under cross-validation
   * (`bench/red-flags.ts --cross-validate`). A flag without stated criteria is never heard so.
   */
  subjectHeard(flagId: string, found: SignsFound): boolean {
    return (this.subjectSigns.get(flagId) ?? []).some((sign) => found.has(sign));
  }

  /**
   * Whether the learned model's reading of a flag in some text is set aside: the flag's
   * `learnedUnless` holds on the text's signs ("I keep coughing up blood" is no gastrointestinal
   * bleeding, though the model, which has no class for coughed blood, reads the blood so), or its
   * `learnedNeedsRead` does not ("my little girl is 2 and has a temperature" is no sepsis).
   */
  learnedSetAside(flagId: string, text: string): boolean {
    const flag = this.flags.find((candidate) => candidate.id === flagId);
    if (flag?.learnedUnless === undefined && flag?.learnedNeedsRead === undefined) return false;
    const found = this.signs.read(text);
    if (flag.learnedUnless !== undefined && statedEvidence(flag.learnedUnless, found) !== null) return true;
    return flag.learnedNeedsRead !== undefined && statedEvidence(flag.learnedNeedsRead, found) === null;
  }

  /**
   * Whether the learned model's reading of a flag lacks what the flag needs said
   * (`learnedNeeds`, over the signs of all the patient's turns): no pregnancy in question, no ectopic
   * pregnancy.
   */
  learnedNeedsUnmet(flagId: string, found: SignsFound): boolean {
    const needs = this.flags.find((flag) => flag.id === flagId)?.learnedNeeds;
    return needs !== undefined && statedEvidence(needs, found) === null;
  }

  /**
   * The flags that fire on a state, in the file's order. Given what the patient said (`patientTurns`),
   * a flag whose `trackedUnless` holds on it is set aside, as in a conversation's screening.
   */
  evaluate(state: DialogueState, patientTurns?: readonly string[]): RedFlag[] {
    let found: SignsFound | undefined;
    return this.fired((flag) => {
      const evidence = evidenceFor(flag.criteria, state);
      if (evidence === null || flag.trackedUnless === undefined || patientTurns === undefined) return evidence;
      found ??= this.signs.readAll(patientTurns);
      return this.trackedSetAside(flag, found) ? null : evidence;
    });
  }

  /** Whether a flag's reading of the tracked state is set aside by what was said (its `trackedUnless`). */
  private trackedSetAside(flag: RedFlagDefinition, found: SignsFound): boolean {
    return flag.trackedUnless !== undefined && statedEvidence(flag.trackedUnless, found) !== null;
  }

  /** The flags whose stated criteria hold on the signs of the patient's turns, in the file's order. */
  evaluateSaid(patientTurns: readonly string[]): RedFlag[] {
    const found = this.signs.readAll(patientTurns);
    return this.fired((flag) => this.statedEvidence(flag, found));
  }

  /** Whether a flag's stated criteria hold on some signs. */
  saidHolds(flagId: string, found: SignsFound): boolean {
    const flag = this.flags.find((candidate) => candidate.id === flagId);
    return flag !== undefined && this.statedEvidence(flag, found) !== null;
  }

  /**
   * The flags that fire on a state or on the signs the patient said (pooled over their turns: see
   * `./red-flag-screen.ts`), each once, with the evidence of both readings. A flag's reading of the
   * words is dropped when `saidSetAside` says so (the learned model's second opinion).
   */
  evaluateConversation(
    state: DialogueState,
    found: SignsFound,
    saidSetAside: (flagId: string) => boolean = () => false,
  ): RedFlag[] {
    return this.fired((flag) => {
      const tracked = this.trackedSetAside(flag, found) ? null : evidenceFor(flag.criteria, state);
      const stated = this.statedEvidence(flag, found);
      const said = stated !== null && saidSetAside(flag.id) ? null : stated;
      return tracked === null && said === null ? null : [...(tracked ?? []), ...(said ?? [])];
    });
  }

  private statedEvidence(flag: RedFlagDefinition, found: SignsFound): string[] | null {
    return flag.stated ? statedEvidence(flag.stated, found) : null;
  }

  private fired(evidenceOf: (flag: RedFlagDefinition) => string[] | null): RedFlag[] {
    const fired: RedFlag[] = [];
    for (const flag of this.flags) {
      const evidence = evidenceOf(flag);
      if (evidence !== null)
        fired.push({ id: flag.id, label: flag.label, urgency: flag.urgency, advice: flag.advice, evidence });
    }
    return fired;
  }

  /** What the doctor says when flags first fire: the opening, each flag's advice, then the choice to go on or stop. */
  escalationText(flags: readonly RedFlag[], options: { endsHistory?: boolean } = {}): string {
    const { opening, closing, closingWhenEnding } = this.file.escalation;
    return [opening, ...flags.map((flag) => flag.advice), options.endsHistory ? closingWhenEnding : closing].join(" ");
  }
}

/** A pattern's source with its terms expanded, or a failure naming where it is. */
function expandedPattern(file: RedFlagsFile, where: string, pattern: string): string {
  try {
    const source = expandTerms(pattern, file.terms);
    new RegExp(source, "i");
    return source;
  } catch (error) {
    const why = error instanceof SyntaxError ? "is not a regular expression" : (error as Error).message;
    return fail(`${where}: '${pattern}' ${why}`);
  }
}

/** Checks the terms and signs: every form and pattern compiles, every example shows its sign; the modifiers are signs. */
function checkSigns(file: RedFlagsFile): void {
  for (const sign of file.semantic.modifierSigns) {
    if (!(sign in file.signs)) fail(`semantic.modifierSigns: unknown sign '${sign}'`);
  }
  for (const pattern of file.otherSubjects.patterns) expandedPattern(file, "otherSubjects", pattern);
  for (const [id, term] of Object.entries(file.terms))
    for (const form of term.forms) expandedPattern(file, `term '${id}'`, form);
  for (const [id, sign] of Object.entries(file.signs))
    for (const pattern of sign.patterns) expandedPattern(file, `sign '${id}'`, pattern);
}

/** Checks that every example of `otherSubjects` is one, read by the rules' own reader. */
function checkOtherSubjects(rules: RedFlagRules): void {
  for (const example of rules.file.otherSubjects.examples)
    if (!rules.signs.isAboutOthers(normaliseSaid(example)))
      fail(`otherSubjects: its example '${example}' does not match`);
}

/**
 * Checks that every sign's examples show it, read by the rules' own reader: each pattern is compiled
 * once (a reader per sign compiled every pattern twice, and the load cost a chat's start a second).
 */
function checkSignExamples(rules: RedFlagRules): void {
  for (const [id, sign] of Object.entries(rules.file.signs))
    for (const example of sign.examples)
      if (!rules.signs.read(example).has(id)) fail(`sign '${id}': its example '${example}' does not show it`);
}

/** Checks a flag's stated criteria: its signs exist, and (when `readExample`) its example sentence fires them. */
function checkStated(flag: RedFlagDefinition, rules: RedFlagRules, readExample: boolean): void {
  for (const field of ["learnedUnless", "learnedNeeds", "learnedNeedsRead", "trackedUnless"] as const)
    for (const sign of flag[field] ? signsOf(flag[field]) : [])
      if (!(sign in rules.file.signs)) fail(`flag '${flag.id}': its ${field} names an unknown sign '${sign}'`);
  if (!flag.stated) return;
  for (const sign of signsOf(flag.stated)) {
    if (!(sign in rules.file.signs)) fail(`flag '${flag.id}': unknown sign '${sign}'`);
  }
  if (readExample && !rules.evaluateSaid([flag.example.said]).some((fired) => fired.id === flag.id))
    fail(`flag '${flag.id}': its example sentence does not fire its stated criteria`);
}

/** What {@link compileRedFlags} checks beyond the file's shape, ids, criteria and patterns. */
export interface RedFlagChecks {
  /**
   * Read every sign's and flag's example sentence (default true). Reading them compiles and first runs
   * each of the signs' regular expressions (about half a second of CPU on their own): the bundled file's
   * examples are read by the test suite instead, so a chat does not pay it at start.
   */
  readonly readExamples?: boolean;
}

/**
 * Checks a validated red-flags file against the CMAS ontology (slots, statuses, attributes, patterns;
 * example states) and itself (unique ids; every example fires its flag; signs and their examples).
 */
export function compileRedFlags(file: RedFlagsFile, { readExamples = true }: RedFlagChecks = {}): RedFlagRules {
  const ids = new Set<string>();
  for (const flag of file.flags) {
    if (ids.has(flag.id)) fail(`duplicate flag id '${flag.id}'`);
    ids.add(flag.id);
    const problem = criterionProblem(flag.criteria);
    if (problem) fail(`flag '${flag.id}': ${problem}`);
    const example = dialogueStateSchema.safeParse(flag.example.state);
    if (!example.success) fail(`flag '${flag.id}': example state: ${describeIssues(example.error)}`);
  }
  checkSigns(file);
  const rules = new RedFlagRules(file);
  checkOtherSubjects(rules);
  if (readExamples) checkSignExamples(rules);
  for (const flag of rules.flags) {
    if (!rules.evaluate(flag.example.state).some((fired) => fired.id === flag.id))
      fail(`flag '${flag.id}': its example state does not fire it`);
    checkStated(flag, rules, readExamples);
  }
  return rules;
}

/** Parses, validates and checks the text of a red-flags file (for tests of edits). */
export function parseRedFlags(text: string): RedFlagRules {
  return compileRedFlags(parseOntologyFile("red-flags.json", text));
}

let cached: RedFlagRules | undefined;

/** The bundled red flags, read and checked once (their examples are read by the tests: {@link RedFlagChecks}). */
export function loadRedFlags(): RedFlagRules {
  cached ??= compileRedFlags(loadOntologyFile("red-flags.json"), { readExamples: false });
  return cached;
}
