import type { NluFrame } from "../../cmas/schemas.ts";
import type { NluModule } from "../../language/module-interfaces.ts";
import { historyAskedOfPatient, speaksForPatient } from "./nlg/proxy-wording.ts";
import { analyseText } from "./nlu/analysed-text.ts";
import { mergeProxy, readInformant, withProxyBasics } from "./nlu/informant.ts";
import { readMedicineMentions } from "./nlu/medicine-mentions.ts";
import { readPatientRequests } from "./nlu/patient-requests.ts";
import { HistoryContextReader } from "./nlu/history-context-reader.ts";
import { interpretTurn } from "./nlu/pipeline.ts";
import type { Lexicon } from "./nlu/lexicon.ts";
import { buildNluTables, type NluTables } from "./nlu/nlu-tables.ts";
import { SmallTalkClassifier } from "./nlu/small-talk.ts";
import { snapshotNluTables } from "./nlu/nlu-snapshot.ts";
import { spellingCorrectorFrom } from "./nlu/spelling.ts";
import type { TrainingData } from "./training-data.ts";

/** Exchanges that exercise every extractor once (hand-written, not from any dataset). */
const WARM_UP: ReadonlyArray<readonly [string, string]> = [
  [
    "What brings you in?",
    "I've had a wet cough and yellow phlegm for the last two weeks, about a 6 out of 10, worse at night, a few times an hour, getting worse.",
  ],
  [
    "Do you smoke or drink, and what do you do for work?",
    "Half a pack a day since I was 20, I work as a cook and I live in a small apartment, I'm 40 years old, my mom has asthma.",
  ],
  [
    "Are you taking anything for it, and did it help?",
    "No, I tried Tylenol for the fever but it didn't help, and I haven't travelled to Spain.",
  ],
];

/** The turn answers a question about medicines, or the NLU read a medication in it: a name said there may be a medicine's. */
function asksOrTellsMedicines(asked: ReadonlySet<string>, frames: readonly NluFrame[]): boolean {
  return (
    asked.has("medication") ||
    frames.some((frame) => Object.keys(frame.slots ?? {}).some((slot) => slot.endsWith("_medication")))
  );
}

/** What the embedded NLU is built from: the lexicon, speller, question reader and small-talk words the training dialogues give. */
export interface NluResources {
  readonly lexicon: Lexicon;
  readonly correct: (word: string) => string | undefined;
  readonly reader: HistoryContextReader;
  readonly smallTalk: SmallTalkClassifier;
}

/** The NLU's resources over its tables. */
export function nluResourcesFrom({ lexicon, mined, speller }: NluTables): NluResources {
  const corrector = spellingCorrectorFrom(speller);
  const correct = (word: string) => corrector.correct(word);
  const reader = new HistoryContextReader({ lexicon, correct, memory: mined.memory });
  const smallTalk = new SmallTalkClassifier(mined.acknowledgements);
  return { lexicon, correct, reader, smallTalk };
}

/**
 * Builds the NLU's resources from the training dialogues: from the build's snapshot when these are
 * the bundled sample's training dialogues and nothing it was made from has changed (see
 * `nlu-snapshot.ts`), else from the dialogues.
 */
export function buildNluResources(training: TrainingData): NluResources {
  return nluResourcesFrom(snapshotNluTables(training) ?? buildNluTables(training));
}

/**
 * The embedded offline NLU: patient utterance (+ dialogue history) → MediTOD NLU frames, with no
 * network and no model weights, deterministic.
 *
 * Built once from our lexicon (`ontology/lexicon.json`), the annotation tool's value lists and what
 * the training dialogues add (value names, question exemplars, acknowledgements, vocabulary); each
 * turn then costs a phrase-trie pass, a few regexes and cached history summaries.
 */
export function buildEmbeddedNlu(training: TrainingData): NluModule {
  return embeddedNluFrom(buildNluResources(training));
}

/** The embedded NLU over resources already built (see {@link buildEmbeddedNlu}). */
export function embeddedNluFrom({ lexicon, correct, reader, smallTalk }: NluResources): NluModule {
  // One synthetic exchange at build time compiles the regexes and warms the JIT, so that no
  // patient turn pays for it.
  for (const [question, answer] of WARM_UP) {
    readMedicineMentions(answer, true);
    interpretTurn(
      { lexicon, smallTalk },
      analyseText(answer, correct),
      reader.read([{ speaker: "doctor", text: question }]),
    );
  }
  return {
    id: "embedded",
    async understand(input) {
      const started = performance.now();
      const { known, update } = readInformant(input.history, input.utterance);
      const proxy = mergeProxy(known, update);
      // Questions put to a relative about the patient ("has he had any blood in his stool?") are read as asked of the patient.
      const context = reader.read(
        speaksForPatient(known?.informant) ? historyAskedOfPatient(input.history) : input.history,
      );
      const doctorQuestion = input.history.findLast((turn) => turn.speaker === "doctor")?.text;
      // The patient's questions and wishes are no history: the passes read the rest of the turn.
      const { requests, history } = readPatientRequests(input.utterance, doctorQuestion);
      const said = requests.length > 0 ? history : input.utterance;
      const frames =
        said.length === 0
          ? [{ intent: "chit-chat" as const }]
          : interpretTurn({ lexicon, smallTalk }, analyseText(said, correct), context, proxy);
      // Who the proxy speaks for goes into the profile too: their age and sex as basic information.
      const read = withProxyBasics(frames, update);
      const medicines = readMedicineMentions(said, asksOrTellsMedicines(context.question.slots, read));
      return {
        frames: read,
        ...(requests.length > 0 ? { requests } : {}),
        ...(update ? { informant: update.informant } : {}),
        ...(medicines.length > 0 ? { medicines } : {}),
        latencyMs: performance.now() - started,
      };
    },
  };
}
