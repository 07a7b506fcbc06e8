import type { TiktokenBPE } from "js-tiktoken/lite";

/**
 * Counts byte-pair tokens as js-tiktoken's `new Tiktoken(ranks).encode(text).length` does, from the
 * same rank file, without building the encoder. Its constructor spreads the 100,256 ranks into an
 * object, then into two maps (bytes as comma-joined decimals → rank, rank → bytes), which cost every
 * process that fits an LLM prompt (most of the tests' LLM commands) 0.7–0.8 s of CPU on the shared
 * test machine; this table, 0.2 s. A count needs only the first map, read here straight from the file's lines.
 *
 * The same steps as `encode` with its defaults (no special token allowed): a text holding a special
 * token is refused with the same error; the text is split by the file's pattern; a piece is one token
 * when its UTF-8 bytes have a rank, else its bytes are merged pair by pair, the lowest-ranked adjacent
 * pair first (the leftmost of equals), and each merged part with a rank is a token.
 * `tests/modules/cl100k-counter.test.ts` compares the counts and the rank table with js-tiktoken's.
 */

/**
 * The rank of each token's bytes, keyed by the bytes as a Latin-1 string (one character per byte:
 * decoding and looking up cost native calls instead of the comma-joined decimals js-tiktoken keys
 * by). Each line of the file is a prefix, the first rank and the tokens that follow it in rank order,
 * in base64 ("! 0 IQ== Ig== …"); a token listed again takes its later rank.
 */
export function cl100kRanks(bpeRanks: string): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const line of bpeRanks.split("\n")) {
    if (line === "") continue;
    const fields = line.split(" ");
    const first = Number.parseInt(fields[1]!, 10);
    for (let index = 2; index < fields.length; index += 1)
      ranks.set(Buffer.from(fields[index]!, "base64").toString("latin1"), first + index - 2);
  }
  return ranks;
}

/** How many tokens the bytes of one piece (a Latin-1 string of them) merge into; the piece has no rank as a whole. */
function mergedTokens(bytes: string, ranks: ReadonlyMap<string, number>): number {
  if (bytes.length === 1) return 1;
  const starts = Array.from({ length: bytes.length + 1 }, (_, index) => index);
  const part = (from: number, to: number) => bytes.slice(starts[from], starts[to]);
  while (starts.length > 2) {
    let lowest: number | undefined;
    let at = -1;
    for (let index = 0; index + 2 < starts.length; index += 1) {
      const rank = ranks.get(part(index, index + 2));
      if (rank !== undefined && (lowest === undefined || rank < lowest)) {
        lowest = rank;
        at = index;
      }
    }
    if (lowest === undefined) break;
    starts.splice(at + 1, 1);
  }
  let tokens = 0;
  for (let index = 0; index + 1 < starts.length; index += 1) if (ranks.has(part(index, index + 1))) tokens += 1;
  return tokens;
}

/** The regular-expression source of any of the special tokens ("<|endoftext|>"), escaped. */
function specialTokenSource(tokens: readonly string[]): string {
  return tokens.map((token) => token.replace(/[\\^$*+?.()|[\]{}]/g, "\\$&")).join("|");
}

/** A token counter for a rank file (js-tiktoken's format); the counts of `new Tiktoken(file).encode(text).length`. */
export function cl100kCounter(file: TiktokenBPE): (text: string) => number {
  const ranks = cl100kRanks(file.bpe_ranks);
  const specialTokens = Object.keys(file.special_tokens);
  const special = specialTokens.length > 0 ? new RegExp(specialTokenSource(specialTokens), "g") : undefined;
  const pieces = new RegExp(file.pat_str, "ug");
  return (text) => {
    const refused = special ? text.match(special) : null;
    if (refused) throw new Error(`The text contains a special token that is not allowed: ${refused[0]}`);
    let tokens = 0;
    for (const [piece] of text.matchAll(pieces)) {
      // UTF-8 as TextEncoder writes it (a lone surrogate as U+FFFD), one character per byte.
      const bytes = Buffer.from(piece, "utf8").toString("latin1");
      tokens += ranks.has(bytes) ? 1 : mergedTokens(bytes, ranks);
    }
    return tokens;
  };
}
