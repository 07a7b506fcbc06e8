import {
  classScores,
  firstSparseRow,
  softmaxInPlace,
  sparseFeatures,
  type ModelInput,
  type RedFlagModelHeader,
} from "./red-flag-model.ts";

/**
 * How the red flags' learned model (`./red-flag-model.ts`) is trained: a multinomial logistic
 * regression fitted by stochastic gradient descent with per-weight step sizes (AdaGrad), several
 * passes over the examples in a seeded shuffled order, and the weights of several such fits (one per
 * seed) averaged, which steadies the probabilities that the threshold reads. Deterministic: the same
 * examples and settings give the same numbers.
 */

/** One training example: a turn's text, its class (`none` or a flag's id), and its weight in the loss. */
export interface TrainingExample {
  readonly text: string;
  readonly label: string;
  readonly weight: number;
}

/** The settings of a training run (the defaults: {@link DEFAULT_TRAINING}). */
export interface TrainingSettings {
  /** Passes over the examples per fit. */
  readonly epochs: number;
  /** Fits averaged, each with its own shuffling seed. */
  readonly seeds: number;
  /** AdaGrad's base step. */
  readonly learningRate: number;
  /** The L2 penalty on each weight updated. */
  readonly l2: number;
  /** Sparse features seen in fewer training examples than this are left out. */
  readonly minCount: number;
  /** What the unit sentence vector's coordinates are multiplied by. */
  readonly denseScale: number;
}

/**
 * The settings used for the bundled model. They were compared on the development parts left out of
 * training (`bench/red-flags-learned.ts`), never on the held-back test parts.
 */
export const DEFAULT_TRAINING: TrainingSettings = {
  epochs: 12,
  seeds: 5,
  learningRate: 0.5,
  l2: 1e-5,
  minCount: 2,
  denseScale: 4,
};

/** A trained model: its sparse features (in row order) and its weights, header fields still to be named. */
export interface TrainedModel {
  readonly features: readonly string[];
  readonly weights: Float32Array;
  readonly shape: Pick<RedFlagModelHeader, "classes" | "denseDims" | "denseScale">;
}

/** A seeded pseudo-random number generator (a linear congruential one: enough for shuffling). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/** The sparse features seen in at least `minCount` examples, in the order first met. */
function featureVocabulary(texts: readonly string[], minCount: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const feature of sparseFeatures(text)) counts.set(feature, (counts.get(feature) ?? 0) + 1);
  const vocabulary = new Map<string, number>();
  for (const [feature, count] of counts) if (count >= minCount) vocabulary.set(feature, vocabulary.size);
  return vocabulary;
}

interface PreparedExample {
  readonly input: ModelInput;
  readonly label: number;
  readonly weight: number;
}

/** One fit: `epochs` passes of AdaGrad over the examples in an order shuffled by `seed`. */
function fitOnce(
  examples: readonly PreparedExample[],
  shape: TrainedModel["shape"],
  rows: number,
  settings: TrainingSettings,
  seed: number,
): Float32Array {
  const classes = shape.classes.length;
  const weights = new Float32Array(rows * classes);
  const squaredGradients = new Float32Array(rows * classes).fill(1e-8);
  const order = [...examples];
  const random = seededRandom(seed);
  const scores = new Float32Array(classes);
  const step = (index: number, gradient: number): void => {
    const g = gradient + settings.l2 * weights[index]!;
    squaredGradients[index]! += g * g;
    weights[index]! -= (settings.learningRate * g) / Math.sqrt(squaredGradients[index]!);
  };
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    for (let index = order.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [order[index], order[other]] = [order[other]!, order[index]!];
    }
    for (const { input, label, weight } of order) {
      classScores(weights, shape, input, scores);
      softmaxInPlace(scores);
      for (let k = 0; k < classes; k++) {
        const error = (scores[k]! - (k === label ? 1 : 0)) * weight;
        step(k, error);
        for (let dim = 0; dim < shape.denseDims; dim++)
          step((1 + dim) * classes + k, error * input.dense[dim]! * shape.denseScale);
        for (const row of input.rows) step(row * classes + k, error);
      }
    }
  }
  return weights;
}

/**
 * Trains the model on examples whose texts `denseOf` encodes (the unit sentence vector, of width
 * `denseDims`); `classes` lists `none` first, then the flags.
 */
export function trainRedFlagModel(
  examples: readonly TrainingExample[],
  classes: readonly string[],
  denseOf: (text: string) => Float32Array,
  denseDims: number,
  settings: TrainingSettings = DEFAULT_TRAINING,
): TrainedModel {
  const shape = { classes, denseDims, denseScale: settings.denseScale };
  const vocabulary = featureVocabulary(
    examples.map((example) => example.text),
    settings.minCount,
  );
  const first = firstSparseRow(shape);
  const prepared = examples.map((example) => {
    const label = classes.indexOf(example.label);
    if (label < 0) throw new Error(`a training example of an unknown class: ${example.label}`);
    const rows = sparseFeatures(example.text).flatMap((feature) => {
      const row = vocabulary.get(feature);
      return row === undefined ? [] : [first + row];
    });
    return { input: { rows, dense: denseOf(example.text) }, label, weight: example.weight };
  });
  const rows = first + vocabulary.size;
  const averaged = new Float32Array(rows * classes.length);
  for (let fit = 0; fit < settings.seeds; fit++) {
    const weights = fitOnce(prepared, shape, rows, settings, 1 + fit * 7919);
    for (let index = 0; index < averaged.length; index++) averaged[index]! += weights[index]! / settings.seeds;
  }
  return { features: [...vocabulary.keys()], weights: averaged, shape };
}
