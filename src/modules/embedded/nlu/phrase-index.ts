import { SKIPPABLE, formKeys, numberValue, type Token } from "./text.ts";

/** Words that do not make a match more specific ("the flu" is no more than "flu"). */
const FUNCTION_WORDS = new Set([
  "a",
  "an",
  "the",
  "my",
  "your",
  "his",
  "her",
  "our",
  "their",
  "of",
  "in",
  "to",
  "at",
  "on",
  "with",
  "any",
  "some",
  "is",
  "was",
  "i",
  "it",
  "you",
]);

/**
 * A trie of multi-word forms over stemmed token keys: finds every form in a token sequence in one
 * left-to-right pass, longest match first, without overlaps. Fillers ("really", "kind of") may sit
 * inside a match but never start or end one, so "not really able to smell" still matches
 * "not able to smell".
 */

interface TrieNode<T> {
  readonly children: Map<string, TrieNode<T>>;
  payloads: T[];
}

/** A matched form: its token range and the payloads of the form. */
export interface PhraseMatch<T> {
  /** Token range `[start, end)`. */
  readonly start: number;
  readonly end: number;
  readonly payloads: readonly T[];
}

function node<T>(): TrieNode<T> {
  return { children: new Map(), payloads: [] };
}

/** Token-trie index of multi-word forms → payloads. */
export class PhraseIndex<T> {
  private readonly root: TrieNode<T> = node();
  private size = 0;

  /** Adds a form (surface text, tokenised and stemmed here); duplicates of a payload are ignored. */
  add(form: string, payload: T, same: (a: T, b: T) => boolean = (a, b) => a === b): void {
    this.addKeys(formKeys(form), payload, same);
  }

  addKeys(keys: readonly string[], payload: T, same: (a: T, b: T) => boolean = (a, b) => a === b): void {
    if (keys.length === 0) return;
    let current = this.root;
    for (const key of keys) {
      let next = current.children.get(key);
      if (!next) {
        next = node();
        current.children.set(key, next);
      }
      current = next;
    }
    if (!current.payloads.some((existing) => same(existing, payload))) {
      current.payloads.push(payload);
      this.size += 1;
    }
  }

  /** Number of (form, payload) pairs. */
  get entries(): number {
    return this.size;
  }

  /** The longest form starting at token `start` (within `[start, limit)`), or undefined. */
  longestAt(tokens: readonly Token[], start: number, limit = tokens.length): PhraseMatch<T> | undefined {
    const first = tokens[start];
    if (!first || first.kind === "punct") return undefined;
    const head = this.root.children.get(first.key);
    if (!head) return undefined;
    let current: TrieNode<T> = head;
    let best: PhraseMatch<T> | undefined =
      current.payloads.length > 0 ? { start, end: start + 1, payloads: current.payloads } : undefined;
    let index = start + 1;
    let skipped = 0;
    while (index < limit) {
      const token = tokens[index]!;
      if (token.kind === "punct" && token.text !== ",") break;
      const next: TrieNode<T> | undefined = token.kind === "punct" ? undefined : current.children.get(token.key);
      if (next) {
        current = next;
        skipped = 0;
        index += 1;
        if (current.payloads.length > 0) best = { start, end: index, payloads: current.payloads };
        continue;
      }
      // Allow a few fillers, quantities ("lost [about ten] pounds") and list commas inside a form, never at its end.
      if (
        (token.kind === "punct" ||
          token.kind === "number" ||
          SKIPPABLE.has(token.text) ||
          numberValue(token.text) !== undefined) &&
        skipped < 3
      ) {
        skipped += 1;
        index += 1;
        continue;
      }
      break;
    }
    return best;
  }

  /**
   * All non-overlapping matches within `[from, to)`, in text order. Where candidates overlap, the one
   * with more content words wins, then the leftmost: "the flu shot" is "flu shot", not "the flu".
   */
  findAll(tokens: readonly Token[], from = 0, to = tokens.length): PhraseMatch<T>[] {
    const candidates: Array<PhraseMatch<T> & { weight: number }> = [];
    for (let index = from; index < to; index += 1) {
      const match = this.longestAt(tokens, index, to);
      if (!match) continue;
      let weight = 0;
      for (let position = match.start; position < match.end; position += 1) {
        const token = tokens[position]!;
        if (token.kind !== "punct" && !FUNCTION_WORDS.has(token.text)) weight += 1;
      }
      candidates.push({ ...match, weight });
    }
    if (candidates.length <= 1) return candidates.map(({ start, end, payloads }) => ({ start, end, payloads }));
    const chosen: PhraseMatch<T>[] = [];
    for (const candidate of [...candidates].sort((a, b) => b.weight - a.weight || a.start - b.start)) {
      if (chosen.some((taken) => candidate.start < taken.end && taken.start < candidate.end)) continue;
      chosen.push({ start: candidate.start, end: candidate.end, payloads: candidate.payloads });
    }
    return chosen.sort((a, b) => a.start - b.start);
  }
}
