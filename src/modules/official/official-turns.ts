import { AnamnesisError } from "../../foundation/errors.ts";
import { pythonJsonDumps } from "../../data/python-json.ts";
import { formatOfficialNlu } from "./official-nlu-format.ts";
import type { RawJson, RawUtterance } from "./official-dataset.ts";
import type { OfficialTask } from "./meditod-checkout.ts";

/**
 * One turn of the official in-context protocol as `prompt_gen.py` and `dynamic.py` build it, for a
 * query and for an exemplar alike (the pool is built exactly like the queries): the last-turn text that
 * retrieval embeds, the user message, and the answer an exemplar shows.
 *
 * - NLU (a patient utterance `uid`): utterances `uid-4 … uid` as `"{speaker}: {text}"`; all but the last
 *   two are the history, the last two the last turn; answer `json.dumps(format_nlu(nlu))`.
 * - Policy (a doctor utterance `uid`): utterances `uid-5 … uid-1`, of which only the last two are shown;
 *   the gold `dialog_state` of utterance `uid-1` (`{}` when `uid` is 0) as `json.dumps(…, indent=2)`;
 *   answer `json.dumps(actions)`.
 * - NLG: the same window; the gold actions of `uid` (`{}` when `uid` is 0) as `json.dumps(…, indent=2)`;
 *   answer the doctor's text.
 */

/** The official `--history_size` default. */
export const OFFICIAL_HISTORY_SIZE = 4;

export interface OfficialTurn {
  /** `"\n".join(last_turn)`: what retrieval embeds. */
  readonly lastTurnText: string;
  readonly user: string;
  readonly answer: string;
}

const line = (utterance: RawUtterance) => `${utterance.speaker}: ${utterance.text}`;

/** `"[dialog history]\n…\n\n[last turn]\n…\n\n[output]"`. */
export function nluUserMessage(history: readonly string[], lastTurn: readonly string[]): string {
  return `[dialog history]\n${history.join("\n")}\n\n[last turn]\n${lastTurn.join("\n")}\n\n[output]`;
}

/** `"[<label>]\n```\n<json.dumps(block, indent=2)>\n```\n\n[last turn]\n…\n\n[output]"`. */
export function blockUserMessage(
  label: "dialog state" | "actions",
  block: RawJson,
  lastTurn: readonly string[],
): string {
  return `[${label}]\n\`\`\`\n${pythonJsonDumps(block, { indent: 2 })}\n\`\`\`\n\n[last turn]\n${lastTurn.join("\n")}\n\n[output]`;
}

function nluTurn(utterances: readonly RawUtterance[], uid: number, historySize: number): OfficialTurn {
  const context = utterances.slice(Math.max(0, uid - historySize), uid + 1).map(line);
  const lastTurn = context.slice(-2);
  return {
    lastTurnText: lastTurn.join("\n"),
    user: nluUserMessage(context.slice(0, -2), lastTurn),
    answer: pythonJsonDumps(formatOfficialNlu(utterances[uid]!.nlu ?? [])),
  };
}

function doctorTurn(
  task: "policy" | "nlg",
  dialogueId: string,
  utterances: readonly RawUtterance[],
  uid: number,
  historySize: number,
): OfficialTurn {
  const lastTurn = utterances
    .slice(Math.max(0, uid - historySize - 1), uid)
    .map(line)
    .slice(-2);
  const utterance = utterances[uid]!;
  if (task === "nlg") {
    const actions: RawJson = uid === 0 ? {} : (utterance.actions ?? null);
    return {
      lastTurnText: lastTurn.join("\n"),
      user: blockUserMessage("actions", actions, lastTurn),
      answer: utterance.text,
    };
  }
  const previous = utterances[uid - 1];
  if (uid !== 0 && previous?.dialog_state === undefined) {
    // Python raises a KeyError here: the official code assumes a patient turn before every doctor turn.
    throw new AnamnesisError(
      "INVALID_DATA",
      `dialogue ${dialogueId} utterance ${uid - 1} has no dialog_state (the official policy prompt shows the state of the utterance before each doctor turn)`,
    );
  }
  const state: RawJson = uid === 0 ? {} : previous!.dialog_state!;
  return {
    lastTurnText: lastTurn.join("\n"),
    user: blockUserMessage("dialog state", state, lastTurn),
    answer: pythonJsonDumps(utterance.actions ?? null),
  };
}

/** The turn of `task` at utterance `uid` of a dialogue. */
export function officialTurn(
  task: OfficialTask,
  dialogueId: string,
  utterances: readonly RawUtterance[],
  uid: number,
  historySize = OFFICIAL_HISTORY_SIZE,
): OfficialTurn {
  return task === "nlu"
    ? nluTurn(utterances, uid, historySize)
    : doctorTurn(task, dialogueId, utterances, uid, historySize);
}

/** The speaker whose utterances a task predicts. */
export function taskSpeaker(task: OfficialTask): "patient" | "doctor" {
  return task === "nlu" ? "patient" : "doctor";
}

/** Whether `prompt_gen.py` builds a query for this utterance: NLU skips a patient turn that ends the dialogue. */
export function isOfficialQuery(task: OfficialTask, utterances: readonly RawUtterance[], uid: number): boolean {
  if (utterances[uid]?.speaker !== taskSpeaker(task)) return false;
  return task !== "nlu" || uid + 1 !== utterances.length;
}
