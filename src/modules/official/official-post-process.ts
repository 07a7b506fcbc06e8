import { pyLower } from "../../metrics/python-text.ts";
import { nlgReplyFormatError } from "../prompting/nlg-reply-check.ts";
import { deformatOfficialNlu, OfficialFormatError } from "./official-nlu-format.ts";
import type { OfficialTask } from "./meditod-checkout.ts";
import type { RawJson } from "./official-dataset.ts";

/**
 * The official `post.py` for an OpenAI-style model: no reply → `""`; the whole reply lower-cased
 * (Python's `str.lower`); NLG keeps that text; NLU and policy parse it with strict JSON (a fenced block
 * or surrounding prose fails), NLU then `deformat_nlu`; any failure → `[]` and one counted format error,
 * here with its reason.
 */

export interface PostProcessed {
  readonly prediction: unknown;
  readonly formatError?: string;
}

/** Python's `json.loads` message style is not needed; the reason says what was wrong. */
function parseStrictJson(text: string): { ok: true; value: RawJson } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) as RawJson };
  } catch (error) {
    const start = text.trimStart().slice(0, 1);
    const hint =
      start === "`" ? " (a fenced block)" : start !== "" && !'[{"-0123456789tfn'.includes(start) ? " (prose)" : "";
    return { ok: false, reason: `not JSON${hint}: ${(error as Error).message}` };
  }
}

export function officialPostProcess(task: OfficialTask, reply: string | null | undefined): PostProcessed {
  const text = pyLower(reply ?? "");
  if (task === "nlg") {
    const formatError = nlgReplyFormatError(text);
    return { prediction: text, ...(formatError ? { formatError } : {}) };
  }
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return { prediction: [], formatError: parsed.reason };
  if (task === "policy") return { prediction: parsed.value };
  try {
    return { prediction: deformatOfficialNlu(parsed.value) };
  } catch (error) {
    if (!(error instanceof OfficialFormatError)) throw error;
    return { prediction: [], formatError: `deformat_nlu failed: ${error.message}` };
  }
}
