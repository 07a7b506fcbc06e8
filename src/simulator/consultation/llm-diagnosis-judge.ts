/**
 * The LLM judge of a consultation's diagnosis: asks a backend whether the doctor's diagnosis names
 * the case's correct one, with our prompt `prompts/consult-diagnosis-judge.v1.txt` (greedy, at most 5
 * tokens); the verdict is a reply that starts with "yes". It is the labelled second reading beside
 * the offline judge (`src/metrics/diagnosis-match.ts`); verdicts go through the backend, so they are
 * cached like any response, and each distinct pair is asked once.
 */
import { createBackend, type BackendOptions, type ChatBackend } from "../../backends/index.ts";
import { exactJudge, type AttributeJudge } from "../../metrics/attribute-judge.ts";
import { loadPromptTemplate } from "../../modules/prompting/prompt-template.ts";

/** The judge's prompt template. */
export const DIAGNOSIS_JUDGE_PROMPT = "consult-diagnosis-judge.v1";

/** A verdict: the reply starts with "yes" (after spaces, quotes and emphasis). */
export function isYesVerdict(reply: string): boolean {
  return /^[\s"'*`]*yes\b/i.test(reply);
}

/** The LLM judge of diagnoses: one verdict per (correct, predicted) pair. */
export class LlmDiagnosisJudge implements AttributeJudge {
  readonly id: string;
  readonly #backend: ChatBackend;

  constructor(backend: ChatBackend) {
    this.id = backend.id;
    this.#backend = backend;
  }

  /** One verdict per pair (`gold` the correct diagnosis), each distinct pair asked once. */
  async equivalent(
    pairs: ReadonlyArray<{ readonly gold: string; readonly predicted: string }>,
    options: { signal?: AbortSignal } = {},
  ): Promise<boolean[]> {
    const template = loadPromptTemplate(DIAGNOSIS_JUDGE_PROMPT);
    const verdicts = new Map<string, Promise<boolean>>();
    const judge = (gold: string, predicted: string): Promise<boolean> => {
      const key = JSON.stringify([gold, predicted]);
      let verdict = verdicts.get(key);
      if (!verdict) {
        const messages = [
          { role: "system" as const, content: template.system },
          { role: "user" as const, content: template.user({ correct: gold, diagnosis: predicted }) },
        ];
        verdict = this.#backend
          .generate(messages, { temperature: 0, maxTokens: 5, ...(options.signal ? { signal: options.signal } : {}) })
          .then((result) => isYesVerdict(result.text));
        verdicts.set(key, verdict);
      }
      return verdict;
    };
    return Promise.all(pairs.map((pair) => judge(pair.gold, pair.predicted)));
  }
}

/** `exact` → no LLM judge (the offline judge alone); anything else is a backend id, e.g. `openai:gpt-4o-mini`. */
export async function createDiagnosisJudge(judgeId: string, options: BackendOptions = {}): Promise<AttributeJudge> {
  if (judgeId === exactJudge.id) return exactJudge;
  return new LlmDiagnosisJudge(await createBackend(judgeId, options));
}
