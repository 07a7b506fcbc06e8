import type { CaseEnding } from "./consult-case.ts";
import type { DoctorMove } from "./consult-roles.ts";

/**
 * Reading an LLM doctor's reply (`prompts/consult-doctor-*.v1.txt`): one line, `QUESTION: …`,
 * `REQUEST TEST: …` (where tests are offered), `ANSWER: <letter>` (a multiple-choice ending) or
 * `DIAGNOSIS: …` (a diagnosis ending; AgentClinic's `DIAGNOSIS READY: …` is read too). Markdown
 * emphasis and a bare question ("Do you smoke?") are accepted; anything else, or an answer that is no
 * option, is a format error with its reason.
 */

/** A labelled line, e.g. `ANSWER: C`, `**Diagnosis:** myasthenia gravis`, `REQUEST TEST: Chest_X-Ray`. */
const LABELLED =
  /^\s*(?:[-*>#]+\s*)?\**\s*(question|answer|diagnosis(?: ready)?|request (?:test|exam(?:ination)?)|request)\s*\**\s*:\s*\**\s*(.*?)\s*\**\s*$/i;

/** An option letter at the start of an answer, e.g. `C`, `(C)`, `C. Ceftriaxone`, `Option C`. */
const OPTION_LETTER = /^(?:option\s+)?\(?([A-Z])\)?(?=$|[\s.):,-])/i;

/** What the reply may do, by the case's ending and whether tests are offered. */
export interface ReplyRules {
  readonly ending: CaseEnding;
  readonly requests: boolean;
}

/** The option an answer names: by its letter, else by the option's text. */
export function optionOf(answer: string, options: Readonly<Record<string, string>>): string | undefined {
  const letter = OPTION_LETTER.exec(answer.trim())?.[1]?.toUpperCase();
  if (letter !== undefined && letter in options) return letter;
  const said = answer
    .trim()
    .toLowerCase()
    .replace(/[.\s]+$/, "");
  return Object.keys(options).find((key) => options[key]!.trim().toLowerCase() === said);
}

/** The labelled lines of a reply, in order: label in lower case, and its text. */
function labelledLines(reply: string): Array<{ label: string; text: string }> {
  return reply.split(/\r?\n/).flatMap((line) => {
    const match = LABELLED.exec(line);
    return match ? [{ label: match[1]!.toLowerCase(), text: match[2]! }] : [];
  });
}

/** An answer line read against the ending: an option letter, or a diagnosis ("none" for no diagnosis). */
function answerMove(reply: string, text: string, ending: CaseEnding): DoctorMove {
  if (ending.kind === "choice") {
    const letter = optionOf(text, ending.options);
    return letter !== undefined
      ? { kind: "answer", text: reply, answer: letter }
      : {
          kind: "format_error",
          text: reply,
          reason: `answer '${text}' is not one of the options ${Object.keys(ending.options).join(", ")}`,
        };
  }
  if (text === "") return { kind: "format_error", text: reply, reason: "an empty diagnosis" };
  return { kind: "answer", text: reply, answer: /^(?:none|no diagnosis|unknown)\.?$/i.test(text) ? null : text };
}

/** Reads a doctor's reply; see the module comment. */
export function readDoctorReply(reply: string, rules: ReplyRules): DoctorMove {
  const lines = labelledLines(reply);
  const answer = lines.find((line) => line.label === "answer" || line.label.startsWith("diagnosis"));
  if (answer) {
    const expected = rules.ending.kind === "choice" ? "answer" : "diagnosis";
    if (!answer.label.startsWith(expected))
      return {
        kind: "format_error",
        text: reply,
        reason: `${answer.label.toUpperCase()}: where ${expected.toUpperCase()}: is asked for`,
      };
    return answerMove(reply, answer.text, rules.ending);
  }
  const request = lines.find((line) => line.label.startsWith("request"));
  if (request && rules.requests && request.text !== "")
    return { kind: "request", text: request.text, request: request.text };
  const question = lines.find((line) => line.label === "question")?.text ?? request?.text;
  if (question) return { kind: "question", text: question.endsWith("?") ? question : `${question}?` };
  const bare = reply.trim();
  if (bare.includes("?") && bare.split(/\r?\n/).length <= 3) return { kind: "question", text: bare };
  if (bare === "") return { kind: "format_error", text: reply, reason: "an empty reply" };
  return {
    kind: "format_error",
    text: reply,
    reason: "neither a question nor an answer (no QUESTION:, ANSWER: or DIAGNOSIS: line)",
  };
}
