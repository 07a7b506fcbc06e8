import type { DialogueState, DoctorAction, NluFrame } from "../../cmas/schemas.ts";
import { toPaperFrames } from "../../cmas/paper-format.ts";
import type { MeditodDataset, Split } from "../../data/meditod.ts";
import { nlgExamples, nluExamples, policyExamples } from "../../data/meditod-views.ts";
import {
  LexicalRetriever,
  type ExemplarRetriever,
  type RetrievalDocument,
} from "../../retrieval/exemplar-retriever.ts";
import { fitPrompt, type Exemplar, type FittedPrompt } from "../prompting/token-budget.ts";
import { loadPromptTemplate, type PromptTemplate } from "../prompting/prompt-template.ts";
import { renderTurns, type DialogueTurn } from "../../language/module-interfaces.ts";

/**
 * The paper's in-context prompts: the task's instructions and definitions as the system message, the
 * top-k retrieved training examples as (user, assistant) pairs, then the query. As in the paper, the
 * "last turn" is the two latest utterances and similarity is computed on it; the history shown before
 * it is the `historySize - 2` utterances before that (the paper's history size is 4, i.e. 2 more).
 */

export type InContextTask = "nlu" | "policy" | "nlg";

/**
 * The template each task uses unless told otherwise. Policy is at v2: v1 rendered the dialogue state
 * indented, which on the test dialogue left 30 of 74 prompts with no exemplar at all (mean 1.08).
 */
/**
 * Prompt plus answer, in cl100k_base tokens. The paper names 4,096; with our policy instructions (1,800
 * tokens) five exemplars and a late turn's state cannot fit that, so the default is 8,192, which the
 * models we target offer; `--context-tokens 4096` restores the paper's window (fewer exemplars, recorded).
 */
export const DEFAULT_TOKEN_BUDGET = 8192;

export const DEFAULT_TEMPLATES: Readonly<Record<InContextTask, string>> = {
  nlu: "nlu.v1",
  policy: "policy.v2",
  nlg: "nlg.v1",
};

/** The paper's answer for each task: NLU `{"frames": …}`, policy `{"actions": …}`, NLG plain text. */
export function exemplarAnswer(task: InContextTask, gold: NluFrame[] | DoctorAction[] | string): string {
  if (task === "nlu") return JSON.stringify({ frames: toPaperFrames(gold as NluFrame[]) });
  if (task === "policy") return JSON.stringify({ actions: gold });
  return gold as string;
}

/** What the query message shows besides the turns: nothing (NLU), the state (policy) or the actions (NLG). */
export type QueryContext =
  { task: "nlu" } | { task: "policy"; state: DialogueState } | { task: "nlg"; actions: readonly DoctorAction[] };

export interface PrompterOptions {
  /** Exemplars per prompt (paper: 5). */
  readonly exemplars?: number;
  /** Utterances of context including the last turn (paper: 4 before the target). */
  readonly historySize?: number;
  /** Context window of the model, prompt and answer together (default {@link DEFAULT_TOKEN_BUDGET}). */
  readonly tokenBudget?: number;
  /** Tokens kept free for the answer. */
  readonly answerTokens?: number;
  /** Template version, e.g. `nlu.v1`. */
  readonly template?: string;
  /** The retriever; default BM25 over the training examples. */
  readonly retriever?: (documents: readonly RetrievalDocument[]) => ExemplarRetriever;
}

interface Document extends RetrievalDocument, Exemplar {}

export class InContextPrompter {
  readonly template: PromptTemplate;
  readonly retriever: ExemplarRetriever;
  private readonly documents: Document[];
  private readonly k: number;
  private readonly historySize: number;
  private readonly budget: number;
  private readonly reserve: number;

  constructor(
    readonly task: InContextTask,
    dataset: MeditodDataset,
    trainSplit: Split | readonly string[],
    options: PrompterOptions = {},
  ) {
    this.template = loadPromptTemplate(options.template ?? DEFAULT_TEMPLATES[task]);
    this.k = options.exemplars ?? 5;
    this.historySize = options.historySize ?? 4;
    this.budget = options.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
    this.reserve = options.answerTokens ?? (task === "nlg" ? 256 : 512);
    this.documents = this.buildDocuments(dataset, trainSplit);
    this.retriever = (options.retriever ?? ((documents) => new LexicalRetriever(documents)))(this.documents);
  }

  private buildDocuments(dataset: MeditodDataset, split: Split | readonly string[]): Document[] {
    const toTurns = (history: readonly { speaker: "doctor" | "patient"; text: string }[]) =>
      history.map(({ speaker, text }) => ({ speaker, text }));
    const make = (
      dialogueId: string,
      turn: number,
      turns: DialogueTurn[],
      context: QueryContext,
      answer: string,
    ): Document => {
      const { history, lastTurn } = this.window(turns);
      return {
        id: `${dialogueId}:${turn}`,
        dialogueId,
        text: renderTurns(lastTurn),
        user: this.renderUser(context, history, lastTurn),
        assistant: answer,
      };
    };
    if (this.task === "nlu") {
      return nluExamples(dataset, split).map((example) =>
        make(
          example.dialogueId,
          example.turn,
          [...toTurns(example.history), { speaker: "patient", text: example.text }],
          { task: "nlu" },
          exemplarAnswer("nlu", example.gold),
        ),
      );
    }
    if (this.task === "policy") {
      return policyExamples(dataset, split).map((example) =>
        make(
          example.dialogueId,
          example.turn,
          toTurns(example.history),
          { task: "policy", state: example.state },
          exemplarAnswer("policy", example.gold),
        ),
      );
    }
    return nlgExamples(dataset, split).map((example) =>
      make(
        example.dialogueId,
        example.turn,
        toTurns(example.history),
        { task: "nlg", actions: example.actions },
        exemplarAnswer("nlg", example.gold),
      ),
    );
  }

  /** Splits the turns shown to the model into the earlier history and the last two utterances. */
  private window(turns: readonly DialogueTurn[]): { history: DialogueTurn[]; lastTurn: DialogueTurn[] } {
    // The paper shows historySize + 1 utterances: the history, then the last two.
    const shown = turns.slice(-this.historySize - 1);
    return { history: shown.slice(0, -2), lastTurn: shown.slice(-2) };
  }

  private renderUser(
    context: QueryContext,
    history: readonly DialogueTurn[],
    lastTurn: readonly DialogueTurn[],
  ): string {
    const lastTurnText = renderTurns(lastTurn);
    if (context.task === "nlu") return this.template.user({ history: renderTurns(history), last_turn: lastTurnText });
    // policy.v1 shows the state indented; policy.v2 on one line, so that five exemplars fit the budget.
    if (context.task === "policy")
      return this.template.user({
        state: JSON.stringify(context.state, null, 2),
        state_compact: JSON.stringify(context.state),
        last_turn: lastTurnText,
      });
    return this.template.user({ actions: JSON.stringify(context.actions, null, 2), last_turn: lastTurnText });
  }

  /**
   * The prompt for a query. `turns` ends with the utterance to understand (NLU) or with the last
   * utterance before the doctor speaks (policy, NLG).
   */
  async build(
    turns: readonly DialogueTurn[],
    context: QueryContext,
    excludeDialogueId?: string,
  ): Promise<FittedPrompt> {
    const { history, lastTurn } = this.window(turns);
    const ranked = await this.retriever.retrieve(renderTurns(lastTurn), this.k, excludeDialogueId);
    return fitPrompt({
      system: this.template.system,
      exemplars: ranked.map((index) => this.documents[index]!),
      // Only the NLU prompt shows history before the last turn; policy and NLG have none to shorten.
      historyTurns: context.task === "nlu" ? history.length : 0,
      renderQuery: (keep) => this.renderUser(context, keep > 0 ? history.slice(-keep) : [], lastTurn),
      budget: this.budget,
      reserve: this.reserve,
    });
  }

  /** Number of training examples retrievable. */
  get size(): number {
    return this.documents.length;
  }
}
