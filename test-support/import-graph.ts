import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import ts from "typescript";
import { EMBEDDED_ENGINE, LAYERS, NEVER_IMPORT_THE_ENGINE, OUTSIDE, SIDE_BY_SIDE, type Layer } from "./layers.ts";

/**
 * The import graph of a checkout, read with the TypeScript compiler's pre-processor (static imports,
 * re-exports, `import type` and dynamic `import()` alike), and the house rules checked on it: no import
 * loop, no import from a layer to one above it, none between layers side by side, none from the layers
 * into the timing scripts or the tests, and the embedded engine reached only through the module builders.
 */

/** An import: the importing file and the imported one, both relative to the checkout. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

const SOURCE = /\.(?:ts|mts|js|mjs)$/;
const SKIPPED_DIRECTORIES = new Set(["node_modules", "dist", ".git", ".cache", "runs", "public", "coverage"]);

function sourceFiles(root: string, dir: string): string[] {
  const path = join(root, dir);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return SOURCE.test(dir) ? [dir] : [];
  return readdirSync(path)
    .filter((name) => !SKIPPED_DIRECTORIES.has(name))
    .flatMap((name) => sourceFiles(root, join(dir, name)));
}

/** The file a relative specifier names, if it is one of `files`. */
function resolveSpecifier(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = normalize(join(dirname(from), specifier));
  return [base, `${base}.ts`, join(base, "index.ts")].find((candidate) => files.has(candidate));
}

/** Every import between the source files under `dirs` of the checkout at `root`. */
export function readImportGraph(root: string, dirs: readonly string[]): ImportEdge[] {
  const files = dirs.flatMap((dir) => sourceFiles(root, dir));
  const known = new Set(files);
  return files.flatMap((from) => {
    const info = ts.preProcessFile(readFileSync(join(root, from), "utf8"), true, true);
    const targets = info.importedFiles.map((file) => resolveSpecifier(from, file.fileName, known));
    return [...new Set(targets)].flatMap((to) => (to === undefined || to === from ? [] : [{ from, to }]));
  });
}

/** Import loops: the strongly connected components of more than one file (Tarjan's algorithm). */
export function importLoops(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) loops.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return loops;
}

const under = (file: string, path: string): boolean => file === path || file.startsWith(`${path}/`);

/** The layer a file belongs to (its position in {@link LAYERS}), or -1 outside the layers. */
export function layerIndex(file: string, layers: readonly Layer[] = LAYERS): number {
  return layers.findIndex((layer) => layer.paths.some((path) => under(file, path)));
}

/** What breaks the house rules, one line per offending import or loop. */
export interface LayerReport {
  readonly loops: readonly string[][];
  readonly upward: readonly string[];
  readonly sideways: readonly string[];
  readonly outsideRules: readonly string[];
  readonly engineReached: readonly string[];
}

const describe = (edge: ImportEdge): string => `${edge.from} -> ${edge.to}`;

/** Checks every import against the layers. */
export function checkLayers(edges: readonly ImportEdge[]): LayerReport {
  const layerName = (file: string) => LAYERS[layerIndex(file)]?.name;
  const sideways = new Set(SIDE_BY_SIDE.flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]));
  const isSideways = ({ from, to }: ImportEdge) => sideways.has(`${layerName(from)}|${layerName(to)}`);
  return {
    loops: importLoops(edges),
    upward: edges
      .filter((edge) => layerIndex(edge.from) >= 0 && layerIndex(edge.to) > layerIndex(edge.from) && !isSideways(edge))
      .map(describe),
    sideways: edges.filter(isSideways).map(describe),
    outsideRules: edges
      .filter(({ from, to }) => {
        if (layerIndex(from) >= 0) return layerIndex(to) < 0;
        const rule = OUTSIDE.find((outside) => under(from, outside.path));
        return rule !== undefined && rule.mayNotImport.some((path) => under(to, path));
      })
      .map(describe),
    engineReached: edges
      .filter(({ from, to }) => under(to, EMBEDDED_ENGINE) && NEVER_IMPORT_THE_ENGINE.some((path) => under(from, path)))
      .map(describe),
  };
}

/** Every folder the checks read: the layers and the folders beside them. */
export const CHECKED_DIRECTORIES: readonly string[] = [
  ...new Set([...LAYERS.flatMap((layer) => layer.paths), ...OUTSIDE.map((outside) => outside.path)]),
];

/** The import graph of this checkout, relative to `root`. */
export function projectImportGraph(root: string): ImportEdge[] {
  return readImportGraph(root, CHECKED_DIRECTORIES).map(({ from, to }) => ({
    from: relative(".", from),
    to: relative(".", to),
  }));
}
