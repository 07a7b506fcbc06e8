import type { NoteDataset, NoteDocument } from "../../../src/data/note-dataset.ts";
import { noteSplit } from "../../../src/data/note-dataset.ts";
import type { ClassifyRequest } from "../../../src/language/module-interfaces.ts";
import { loadPromptTemplate, type PromptTemplate } from "../../../src/modules/prompting/prompt-template.ts";
import { Bm25Index } from "../../../src/retrieval/bm25.ts";

/**
 * How a prompted model is asked for MEDIQA-Chat 2023 task A's section header (our protocol; the
 * challenge set none): `prompts/mediqa-chat-a.v1.txt` (the 20 headers, each with what it covers) as the
 * system message, the {@link TASK_A_EXEMPLARS} training dialogues nearest by BM25 as worked examples
 * (the dialogue, then its header), then the dialogue; greedy, a few tokens, read as one of the headers
 * or a format error. The embedded engine ignores the prompt.
 */

export const TASK_A_PROMPT = "mediqa-chat-a.v1";

/** Training dialogues shown as worked examples (short dialogues: all of them fit). */
export const TASK_A_EXEMPLARS = 5;

export function taskATemplate(): PromptTemplate {
  return loadPromptTemplate(TASK_A_PROMPT);
}

/** The version a run records: the template and its hash. */
export function taskAPromptVersion(): string {
  const template = taskATemplate();
  return `${template.version}#${template.hash}`;
}

/** The headers to choose from: those of the training split, most frequent first. */
export function taskALabels(dataset: NoteDataset): string[] {
  const counts = new Map<string, number>();
  for (const { header } of noteSplit(dataset, dataset.trainingSplit))
    if (header !== undefined) counts.set(header, (counts.get(header) ?? 0) + 1);
  return [...counts].sort(([a, left], [b, right]) => right - left || a.localeCompare(b)).map(([header]) => header);
}

/** Finds each dialogue's nearest training dialogues by BM25; built once per dataset. */
export class TaskAExemplarFinder {
  private readonly training: readonly NoteDocument[];
  private readonly index: Bm25Index;

  constructor(dataset: NoteDataset) {
    this.training = noteSplit(dataset, dataset.trainingSplit);
    this.index = new Bm25Index(this.training.map((document) => document.input));
  }

  /** The nearest training dialogues, nearest first, never the dialogue itself. */
  nearest(document: NoteDocument, k: number = TASK_A_EXEMPLARS): NoteDocument[] {
    const hits = this.index.search(document.input, k, (index) => this.training[index]!.id === document.id);
    return hits.map((hit) => this.training[hit.index]!);
  }
}

/** The classification request of one dialogue. */
export function taskARequest(
  document: NoteDocument,
  exemplars: readonly NoteDocument[],
  labels: readonly string[],
): ClassifyRequest {
  const template = taskATemplate();
  return {
    instructions: template.system,
    input: document.input,
    labels,
    prompt: {
      user: template.user({ dialogue: document.input }),
      examples: exemplars.map((exemplar) => ({
        id: exemplar.id,
        user: template.user({ dialogue: exemplar.input }),
        assistant: exemplar.header ?? "",
      })),
    },
  };
}
