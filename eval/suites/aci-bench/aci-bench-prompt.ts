import type { AciBenchDataset, AciBenchEncounter } from "../../../src/data/aci-bench.ts";
import type { FewShotPrompt, NoteRequest } from "../../../src/language/module-interfaces.ts";
import { loadPromptTemplate, type PromptTemplate } from "../../../src/modules/prompting/prompt-template.ts";
import { Bm25Index } from "../../../src/retrieval/bm25.ts";

/**
 * How a prompted model is asked for an ACI-Bench note (our protocol: the paper's own prompts are not
 * used): the versioned prompt `prompts/aci-bench-note.v1.txt` as the system message; the training
 * visits whose conversations are nearest the visit's by BM25 as worked examples (their conversation,
 * then the clinician's note), nearest first, as many as fit the context window beside the note; then
 * the visit's conversation. Greedy decoding, at most {@link NOTE_TOKENS} tokens, not cut. The embedded
 * engine ignores the prompt and reads the bare conversation.
 */

/** The prompt template's version. */
export const ACI_NOTE_PROMPT = "aci-bench-note.v1";

/** Training visits retrieved as worked examples; the writer keeps the nearest that fit its context window. */
export const ACI_EXEMPLARS = 3;

/** Tokens a note may take: the longest gold note is about 1,220 tokens (cl100k_base). */
export const NOTE_TOKENS = 2048;

/** The prompt template, loaded once. */
export function aciNoteTemplate(): PromptTemplate {
  return loadPromptTemplate(ACI_NOTE_PROMPT);
}

/** The version a run records: the template and its hash. */
export function aciPromptVersion(): string {
  const template = aciNoteTemplate();
  return `${template.version}#${template.hash}`;
}

/** Finds each visit's nearest training visits by BM25 over the conversations; built once per dataset. */
export class AciExemplarFinder {
  private readonly training: readonly AciBenchEncounter[];
  private readonly index: Bm25Index;

  constructor(dataset: AciBenchDataset) {
    this.training = dataset.splits[dataset.trainingSplit as "train"];
    this.index = new Bm25Index(this.training.map((encounter) => encounter.input));
  }

  /** The `k` nearest training visits to `encounter`, nearest first, never the visit itself. */
  nearest(encounter: AciBenchEncounter, k: number = ACI_EXEMPLARS): AciBenchEncounter[] {
    const hits = this.index.search(encounter.input, k, (index) => this.training[index]!.id === encounter.id);
    return hits.map((hit) => this.training[hit.index]!);
  }
}

/** The note request of one visit: the instructions, the bare conversation, and the rendered few-shot prompt. */
export function aciNoteRequest(encounter: AciBenchEncounter, exemplars: readonly AciBenchEncounter[]): NoteRequest {
  const template = aciNoteTemplate();
  const prompt: FewShotPrompt = {
    user: template.user({ dialogue: encounter.input }),
    examples: exemplars.map((exemplar) => ({
      id: exemplar.id,
      user: template.user({ dialogue: exemplar.input }),
      assistant: exemplar.target,
    })),
  };
  return {
    instructions: template.system,
    input: encounter.input,
    prompt,
    generation: { maxTokens: NOTE_TOKENS, until: null },
  };
}
