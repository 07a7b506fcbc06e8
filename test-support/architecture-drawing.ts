import { importLoops, layerIndex, type ImportEdge } from "./import-graph.ts";
import { LAYERS } from "./layers.ts";

/**
 * Mermaid drawings of the import graph, for `docs/architecture.md` (kept current by
 * `tests/house-rules/layers.test.ts`, written by `docs/architecture-drawing.ts`):
 * - the layers, one box each, an arrow where one layer imports another and no longer path already
 *   connects them (the transitive reduction: every import goes down, so this is the plan's skeleton);
 * - the folders, every import between them, arrows in a loop drawn red: the same drawing for any
 *   layout, so a layout before and after a change can be compared.
 */

const nodeId = (name: string): string => name.replace(/[^A-Za-z0-9]/g, "_");

/** Pairs (from, to) of distinct groups that some import joins, sorted. */
function groupEdges(
  edges: readonly ImportEdge[],
  groupOf: (file: string) => string | undefined,
): Array<[string, string]> {
  const pairs = new Set<string>();
  for (const { from, to } of edges) {
    const [a, b] = [groupOf(from), groupOf(to)];
    if (a !== undefined && b !== undefined && a !== b) pairs.add(`${a}\u0000${b}`);
  }
  return [...pairs].sort().map((pair) => pair.split("\u0000") as [string, string]);
}

/** The edges of a directed acyclic graph that no longer path implies. */
function transitiveReduction(pairs: ReadonlyArray<[string, string]>): Array<[string, string]> {
  const next = new Map<string, Set<string>>();
  for (const [a, b] of pairs) next.set(a, (next.get(a) ?? new Set()).add(b));
  const reachableWithoutDirectEdge = (from: string, to: string): boolean => {
    const stack = [...(next.get(from) ?? [])].filter((node) => node !== to);
    const seen = new Set(stack);
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node === to) return true;
      for (const after of next.get(node) ?? []) {
        if (seen.has(after)) continue;
        seen.add(after);
        stack.push(after);
      }
    }
    return false;
  };
  return pairs.filter(([a, b]) => !reachableWithoutDirectEdge(a, b));
}

/** The layers, top to bottom, with the arrows of the transitive reduction of their imports. */
export function layerDrawing(edges: readonly ImportEdge[]): string {
  const layerOf = (file: string) => LAYERS[layerIndex(file)]?.name;
  const lines = ["flowchart TD"];
  for (const layer of [...LAYERS].reverse())
    lines.push(`  ${nodeId(layer.name)}["<b>${layer.name}</b><br/>${layer.paths.join(", ")}"]`);
  for (const [from, to] of transitiveReduction(groupEdges(edges, layerOf)))
    lines.push(`  ${nodeId(from)} --> ${nodeId(to)}`);
  return lines.join("\n");
}

/** The folder a file is drawn in: its first two path segments (three under `src/modules/`), or the file itself at the root. */
export function drawingFolder(file: string): string {
  const parts = file.split("/");
  if (parts.length === 1) return file;
  const depth = parts[0] === "src" && parts[1] === "modules" && parts.length > 3 ? 3 : 2;
  return parts.length > depth ? parts.slice(0, depth).join("/") : parts.slice(0, -1).join("/") || file;
}

/** Every folder-to-folder import of a layout; arrows within a loop of folders are red. */
export function folderDrawing(edges: readonly ImportEdge[]): { drawing: string; loops: number } {
  const pairs = groupEdges(edges, drawingFolder);
  const loops = importLoops(pairs.map(([from, to]) => ({ from, to })));
  const inLoop = (a: string, b: string) => loops.some((loop) => loop.includes(a) && loop.includes(b));
  const lines = ["flowchart LR"];
  const red: number[] = [];
  pairs.forEach(([from, to], index) => {
    lines.push(`  ${nodeId(from)}["${from}"] --> ${nodeId(to)}["${to}"]`);
    if (inLoop(from, to)) red.push(index);
  });
  if (red.length > 0) lines.push(`  linkStyle ${red.join(",")} stroke:#d00,stroke-width:2px`);
  return { drawing: lines.join("\n"), loops: loops.length };
}
