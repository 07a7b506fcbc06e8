import { loadDiagnoses } from "../../clinical/diagnoses.ts";
import type { DialogueState } from "../../cmas/schemas.ts";
import { diagnosisMatcher } from "../../metrics/diagnosis-match.ts";
import type { ConsultCase } from "./consult-case.ts";
import type { ConsultTurn } from "./consult-roles.ts";
import { factMatcher } from "./fact-matcher.ts";

/**
 * How the embedded doctor answers, offline, from nothing but what the patient said and the case's
 * options — never the answer key, so that it is the floor the other doctors are read against:
 * - a diagnosis: the disease its dialogue manager named at the closing, else the working diagnosis the
 *   tracked CMAS state supports (`ontology/diagnoses.json`), else none;
 * - an option letter: the option that names that diagnosis, if one does; else the option sharing the
 *   most words with what the patient said; a tie (often: nothing shared) is broken by a fixed hash of
 *   the case id and the letter, so the pick is as good as chance and the same on every run.
 */

/** FNV-1a, 32 bits: a fixed, well-spread hash for breaking ties. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The diagnosis an embedded doctor holds: the one it named, else the tracked state's working diagnosis. */
export function heldDiagnosis(named: string | null, state: DialogueState | null): string | null {
  if (named !== null) return named;
  return state ? (loadDiagnoses().workingImpression(state)?.disease ?? null) : null;
}

/** The option letter an offline doctor picks; see the module comment. */
export function offlineChoice(
  patientCase: ConsultCase,
  turns: readonly ConsultTurn[],
  diagnosis: string | null,
): string {
  if (patientCase.ending.kind !== "choice") throw new Error("offlineChoice needs a multiple-choice case");
  const { options } = patientCase.ending;
  const letters = Object.keys(options);
  const naming =
    diagnosis === null ? undefined : letters.find((letter) => diagnosisMatcher().matches(options[letter]!, diagnosis));
  if (naming !== undefined) return naming;
  const matcher = factMatcher();
  const said = new Set(
    turns.filter((turn) => turn.speaker === "patient").flatMap((turn) => [...matcher.analyse(turn.text).stems]),
  );
  const scored = letters.map((letter) => ({
    letter,
    shared: [...matcher.analyse(options[letter]!).stems].filter((stem) => said.has(stem)).length,
    tie: fnv1a(`${patientCase.id}:${letter}`),
  }));
  scored.sort((a, b) => b.shared - a.shared || a.tie - b.tie);
  return scored[0]!.letter;
}

/** The embedded doctor's answer: a letter for a multiple-choice case, else its diagnosis (null: none). */
export function offlineAnswer(
  patientCase: ConsultCase,
  turns: readonly ConsultTurn[],
  named: string | null,
  state: DialogueState | null,
): string | null {
  const diagnosis = heldDiagnosis(named, state);
  return patientCase.ending.kind === "choice" ? offlineChoice(patientCase, turns, diagnosis) : diagnosis;
}

/** The state tracked after the last patient turn that has one. */
export function lastTrackedState(turns: readonly ConsultTurn[]): DialogueState | null {
  return turns.findLast((turn) => turn.state !== undefined)?.state ?? null;
}
