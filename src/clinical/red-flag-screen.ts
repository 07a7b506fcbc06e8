import type { DialogueState } from "../cmas/schemas.ts";
import { learnedOverrulesWords } from "./learned-second-opinion.ts";
import { poolSigns, type SignsFound } from "./red-flag-signs.ts";
import type { RedFlag, RedFlagRules } from "./red-flags.ts";
import type { SemanticMatch, SemanticRedFlags } from "./red-flags-semantic.ts";

/**
 * One conversation's red-flag screening, kept up to date turn by turn: each patient turn's signs are
 * read once, when it is said, and pooled with the turns before it; the semantic signal's matches of a
 * turn are kept once its sentences are encoded (a turn whose encoding arrives late is read at the next
 * screening, so nothing it says is lost). A screening costs the new turn's reading, not the whole
 * conversation's.
 */

/** What is kept of one patient turn. */
interface ScreenedTurn {
  readonly text: string;
  readonly signs: SignsFound;
  /** The semantic signal's matches; null until the turn's sentences are encoded. */
  semantic: readonly SemanticMatch[] | null;
  /**
   * The learned model's matches of the turn with the turns before it, less those its flag sets aside on
   * the words read (which depend on those words alone); null until the signal is on.
   */
  learned: readonly SemanticMatch[] | null;
  /** The learned model's highest probability per flag over the runs ending with the turn; null until read. */
  learnedHighest: ReadonlyMap<string, number> | null;
}

/**
 * The evidence of a semantic match: the patient's sentence and the corpus statement it sounds like, or
 * the learned model's probability.
 */
function semanticEvidence(match: SemanticMatch): string {
  return match.statement === null
    ? `said: "${match.sentence}" (the learned red-flag model: ${match.similarity.toFixed(2)})`
    : `said: "${match.sentence}" (sounds like "${match.statement}", ${match.similarity.toFixed(2)})`;
}

/**
 * The learned model reads each turn with the turns before it, so once a flag fires, every later window
 * repeats the words that fired it ("…faint", "…faint im 26", "…faint im 26 about 6 weeks ago"). Only
 * the first window of a flag is evidence; a window that does not extend it (the model read something
 * new) is kept.
 */
function withoutRepeatedWindows(matches: readonly SemanticMatch[]): SemanticMatch[] {
  const shown = new Map<string, string[]>();
  return matches.filter((match) => {
    if (match.statement !== null) return true;
    const earlier = shown.get(match.flag) ?? [];
    if (earlier.some((sentence) => match.sentence.startsWith(sentence))) return false;
    shown.set(match.flag, [...earlier, match.sentence]);
    return true;
  });
}

/** Red-flag screening of one conversation (one instance per conversation: it follows that conversation's turns). */
export class RedFlagScreen {
  private readonly turns: ScreenedTurn[] = [];
  private signs = new Map<string, string>();

  constructor(
    private readonly rules: RedFlagRules,
    private readonly semantic: SemanticRedFlags | null = null,
  ) {}

  /**
   * The flags that fire on the tracked state and on what the patient has said so far, each once, in
   * the file's order and then the semantic signal's, with the evidence of every reading.
   */
  flags(state: DialogueState, patientTurns: readonly string[]): RedFlag[] {
    this.follow(patientTurns);
    const fired = this.rules.evaluateConversation(state, this.signs, (flagId) => this.overruled(flagId));
    for (const match of withoutRepeatedWindows(this.semanticMatches())) {
      const index = fired.findIndex((flag) => flag.id === match.flag);
      const evidence = semanticEvidence(match);
      if (index >= 0) {
        const flag = fired[index]!;
        if (!flag.evidence.includes(evidence)) fired[index] = { ...flag, evidence: [...flag.evidence, evidence] };
        continue;
      }
      const definition = this.rules.flags.find((flag) => flag.id === match.flag);
      if (!definition) continue;
      const { id, label, urgency, advice } = definition;
      fired.push({ id, label, urgency, advice, evidence: [evidence] });
    }
    return fired;
  }

  /**
   * Brings the kept turns up to the conversation's: the new turns are read and their signs pooled. A
   * conversation that is not the one followed so far (a retried turn replaced, another conversation)
   * is read again whole.
   */
  private follow(patientTurns: readonly string[]): void {
    const known = this.turns.length;
    const continues =
      known <= patientTurns.length && (known === 0 || patientTurns[known - 1] === this.turns.at(-1)!.text);
    if (!continues) {
      this.turns.length = 0;
      this.signs = new Map();
    }
    const fresh = patientTurns.slice(this.turns.length).map((text) => ({
      text,
      signs: this.rules.signs.read(text),
      semantic: null,
      learned: null,
      learnedHighest: null,
    }));
    this.turns.push(...fresh);
    poolSigns(
      fresh.map((turn) => turn.signs),
      this.signs,
    );
  }

  /**
   * The semantic matches of every turn, reading those whose sentences were encoded since the last
   * screening: a statement's match counts only when the conversation has said something of what its
   * flag is about ({@link RedFlagRules.subjectHeard}); the learned model's count as they are (it was
   * trained against the near-misses and ordinary talk, and reading the subject through the rules' words
   * would undo what it adds), unless the flag sets them aside on the words read
   * ({@link RedFlagRules.learnedSetAside}) or the conversation lacks what the flag needs said
   * ({@link RedFlagRules.learnedNeedsUnmet}).
   */
  private semanticMatches(): SemanticMatch[] {
    if (!this.semantic) return [];
    const nearest: SemanticMatch[] = [];
    const learned: SemanticMatch[] = [];
    this.turns.forEach((turn, index) => {
      turn.semantic ??= this.semantic!.matchPrepared(turn.text);
      turn.learned ??= this.learnedKept(this.turns.slice(0, index + 1).map((earlier) => earlier.text));
      nearest.push(...(turn.semantic ?? []));
      learned.push(...(turn.learned ?? []));
    });
    return [
      ...nearest.filter((match) => this.rules.subjectHeard(match.flag, this.signs)),
      ...learned.filter((match) => !this.rules.learnedNeedsUnmet(match.flag, this.signs)),
    ];
  }

  /**
   * Whether the learned model sets aside the rules' reading of a flag in the patient's words
   * (`./learned-second-opinion.ts`); each turn is read once, when the signal is on.
   */
  private overruled(flagId: string): boolean {
    if (!this.semantic) return false;
    this.turns.forEach((turn, index) => {
      turn.learnedHighest ??= this.semantic!.learnedHighest(this.turns.slice(0, index + 1).map((t) => t.text));
    });
    return learnedOverrulesWords(this.rules, flagId, {
      signs: this.turns.map((turn) => turn.signs),
      highest: this.turns.map((turn) => turn.learnedHighest),
    });
  }

  /**
   * The learned model's matches of the last of some turns that its flags do not set aside on the words
   * read; read once per turn, as they depend on nothing said later. Null while the signal is loading.
   */
  private learnedKept(turns: readonly string[]): SemanticMatch[] | null {
    const matches = this.semantic!.learnedMatches(turns);
    return matches && matches.filter((match) => !this.rules.learnedSetAside(match.flag, match.sentence));
  }
}
