import { loadMeditod } from "../../../../src/data/meditod.ts";
import { analyseText } from "../../../../src/modules/embedded/nlu/analysed-text.ts";
import { NLU_PASSES, runPasses, type NluPass } from "../../../../src/modules/embedded/nlu/pipeline.ts";
import { newTurnRecord, type TurnRecord } from "../../../../src/modules/embedded/nlu/turn-record.ts";
import { buildNluResources, type NluResources } from "../../../../src/modules/embedded/nlu.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";

/** The NLU's resources built from the train split, once per test file. */
let resources: NluResources | undefined;
export function nluResources(): NluResources {
  resources ??= buildNluResources(loadTrainingData(loadMeditod(), "train"));
  return resources;
}

/** An exchange: earlier turns (doctor first, alternating), the doctor's question and the patient's utterance. */
export interface Exchange {
  readonly history?: readonly string[];
  readonly question: string;
  readonly utterance: string;
}

/** The turn record of an exchange after the passes up to and including `lastPass` (all when omitted). */
export function readTurn(exchange: Exchange, lastPass?: string, passes: readonly NluPass[] = NLU_PASSES): TurnRecord {
  const { lexicon, smallTalk, correct, reader } = nluResources();
  const turns = [...(exchange.history ?? []), exchange.question].map((text, index) => ({
    speaker: index % 2 === 0 ? ("doctor" as const) : ("patient" as const),
    text,
  }));
  const context = reader.read(turns);
  const turn = newTurnRecord({ lexicon, smallTalk }, analyseText(exchange.utterance, correct), context);
  const end = lastPass === undefined ? passes.length : passes.findIndex((pass) => pass.name === lastPass) + 1;
  if (end === 0) throw new Error(`no pass '${lastPass}'`);
  return runPasses(turn, passes.slice(0, end));
}

/** The text of a token span. */
export function spanText(turn: TurnRecord, span: { readonly start: number; readonly end: number }): string {
  return turn.analysed.tokens
    .slice(span.start, span.end)
    .map((token) => token.text)
    .join(" ");
}
