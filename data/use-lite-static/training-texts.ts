/**
 * The texts the static encoder's table is fitted on (`make-table.ts`): sentences as the chat compares
 * them (`sentencesOf`: lower case, two words or more), from medical conversations and case texts
 * bundled in `data/`, and the semantic signal's own statements. None from the red-flag corpus's later
 * development parts (`development-v5` on), which measure the encoder out of sample, nor from its
 * held-back test parts, nor from MediTOD's test split.
 */
import { sentencesOf } from "../../src/clinical/red-flag-signs.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags, loadDevelopmentCorpus } from "../../src/clinical/red-flags-encoder.ts";
import { loadAciBench } from "../../src/data/aci-bench.ts";
import { loadMediq } from "../../src/data/mediq.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { loadMtsDialog } from "../../src/data/mts-dialog.ts";

/** A dialogue line's speaker tag ("Doctor:", "[patient]"), dropped. */
const SPEAKER = /^\s*(?:\[[a-z_]+\]|(?:doctor|patient|guest_family|guest_clinician)\s*:)\s*/i;

/** Collects texts once each, in the order first met. */
class TextSet {
  readonly texts: string[] = [];
  private readonly seen = new Set<string>();

  addText(text: string): void {
    if (this.seen.has(text)) return;
    this.seen.add(text);
    this.texts.push(text);
  }

  /** The sentences of some text, of two words or more. */
  addSentences(raw: string): void {
    for (const sentence of sentencesOf(raw)) if (sentence.split(" ").length >= 2) this.addText(sentence);
  }

  /** The sentences of a transcript's lines, without their speaker tags. */
  addDialogue(transcript: string): void {
    for (const line of transcript.split("\n")) this.addSentences(line.replace(SPEAKER, ""));
  }
}

/** The semantic signal's statements (as it compares them) and the sentences of each of their turns. */
function addStatements(into: TextSet): void {
  const compared = bundledSemanticRedFlags(loadRedFlags(), { cacheDir: null }).statementTexts;
  for (const text of compared) into.addText(text);
  for (const text of compared) into.addSentences(text);
  for (const { fires, nearMisses } of Object.values(loadDevelopmentCorpus().flags)) {
    for (const statement of [...fires, ...nearMisses])
      for (const turn of typeof statement === "string" ? [statement] : statement) into.addSentences(turn);
  }
}

/** The training texts, in a fixed order: the statements, MTS-Dialog, ACI-Bench, MediTOD, MediQ. */
export function trainingTexts(): string[] {
  const into = new TextSet();
  addStatements(into);
  const mts = loadMtsDialog();
  for (const split of ["train", "valid"]) for (const document of mts.splits[split] ?? []) into.addDialogue(document.input);
  const aci = loadAciBench();
  for (const split of ["train", "valid"] as const) for (const document of aci.splits[split]) into.addDialogue(document.input);
  const meditod = loadMeditod();
  for (const split of ["train", "valid"] as const) {
    for (const id of meditod.splits[split] ?? [])
      for (const utterance of meditod.dialogues.get(id)?.utterances ?? []) into.addSentences(utterance.text);
  }
  for (const cases of Object.values(loadMediq().splits)) {
    for (const story of cases ?? []) {
      for (const sentence of typeof story.context === "string" ? [story.context] : story.context) into.addSentences(sentence);
      for (const fact of story.facts) into.addSentences(fact.replace(/^\d+\.\s*/, ""));
    }
  }
  return into.texts;
}
