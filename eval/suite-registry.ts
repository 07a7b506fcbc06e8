import { AnamnesisError } from "../src/foundation/errors.ts";
import type { DatasetSource } from "./shared/bench-dataset.ts";
import type { Suite } from "./shared/suite.ts";
import type { SuiteFamily } from "./shared/suite-family.ts";

/**
 * A list of suites and what is looked up in it: suites by id, `--suite` words, the data and family of a
 * run, the datasets. The runner ships one (`eval/registry.ts`); a test or a library user may make another
 * with more suites.
 */
export interface SuiteRegistry<S extends Suite = Suite> {
  /** In the order tables, `--help` and `anamnesis score` list them. */
  readonly suites: readonly S[];
  readonly families: readonly SuiteFamily[];
  /** Every dataset the suites read, in the order of their families. */
  readonly datasets: readonly DatasetSource[];
  /** The suite of an id, if it is registered. */
  get(id: string): S | undefined;
  /** The `--suite` words of a family: its alias, then its suites' ids. */
  wordsOf(family: SuiteFamily): string[];
  /** Suite ids from `--suite` words: an alias (`meditod`) expanded, repeats dropped; an unknown word is an error listing the known ones. */
  resolve(words: readonly string[]): Array<S["id"]>;
  /** The suites of the given ids in the order their family's tables list them. */
  inTableOrder(ids: readonly string[]): S[];
  /** The data the suites read; suites on different data need separate runs. */
  dataOf(ids: readonly string[]): string;
  /** A dataset by its name. */
  dataset(name: string): DatasetSource;
}

/** A registry of the given suites, in this order. */
export function createSuiteRegistry<const S extends Suite>(suites: readonly S[]): SuiteRegistry<S> {
  const byId = new Map<string, S>(suites.map((suite) => [suite.id, suite]));
  const families = [...new Set(suites.map((suite) => suite.family))];
  const datasets = families.flatMap((family) => family.datasets);
  const aliases = families.flatMap((family) => (family.alias ? [family.alias] : []));
  const known = (id: string): S => {
    const suite = byId.get(id);
    if (!suite)
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        `unknown suite '${id}' (available: ${[...aliases.map((alias) => alias.word), ...byId.keys()].join(", ")})`,
      );
    return suite;
  };
  return {
    suites,
    families,
    datasets,
    get: (id) => byId.get(id),
    wordsOf: (family) => [
      ...(family.alias ? [family.alias.word] : []),
      ...suites.filter((suite) => suite.family === family).map((suite) => suite.id),
    ],
    resolve: (words) => {
      const expanded = words.flatMap((word) => aliases.find((alias) => alias.word === word)?.suites ?? [word]);
      expanded.forEach(known);
      return expanded.filter((id, index) => expanded.indexOf(id) === index);
    },
    inTableOrder: (ids) => {
      const chosen = ids.map(known);
      const byRegistry = suites.filter((suite) => chosen.includes(suite));
      return chosen[0]?.family.order === "registry" ? byRegistry : chosen;
    },
    dataOf: (ids) => {
      const kinds = [...new Set(ids.map((id) => known(id).data))];
      if (kinds.length !== 1)
        throw new AnamnesisError(
          "INVALID_ARGUMENT",
          `run suites on different data separately (${ids.join(", ")} read ${kinds.join(" and ")})`,
        );
      return kinds[0]!;
    },
    dataset: (name) => {
      const source = datasets.find((candidate) => candidate.id === name);
      if (!source)
        throw new AnamnesisError(
          "INVALID_ARGUMENT",
          `unknown data '${name}' (available: ${datasets.map((candidate) => candidate.id).join(", ")})`,
        );
      return source;
    },
  };
}
