/**
 * Draws the import graph into `docs/architecture.md` (the sections between `<!-- drawing:NAME -->` and
 * `<!-- /drawing:NAME -->`), from the code as it stands:
 *
 *   npx tsx docs/architecture-drawing.ts            rewrite the drawings of this checkout
 *   npx tsx docs/architecture-drawing.ts --of DIR   print the folder drawing of another checkout
 *
 * `tests/house-rules/layers.test.ts` fails when the drawings are not current.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { folderDrawing, layerDrawing } from "../test-support/architecture-drawing.ts";
import { projectImportGraph, readImportGraph, type ImportEdge } from "../test-support/import-graph.ts";

export const ARCHITECTURE_DOC = fileURLToPath(new URL("./architecture.md", import.meta.url));

/** The code folders of a layout drawn folder by folder (tests and fixtures left out: they import everything). */
const DRAWN_FOLDERS = ["index.ts", "src", "eval", "server", "cli", "bench", "test-support"];

const fenced = (name: string, body: string) =>
  `<!-- drawing:${name} -->\n\`\`\`mermaid\n${body}\n\`\`\`\n<!-- /drawing:${name} -->`;

/** The generated sections of the document, markers included. */
export function architectureSections(edges: readonly ImportEdge[]): string[] {
  const inFolders = edges.filter(({ from, to }) =>
    [from, to].every((file) => DRAWN_FOLDERS.some((folder) => file === folder || file.startsWith(`${folder}/`))),
  );
  const folders = folderDrawing(inFolders);
  return [
    fenced("layers", layerDrawing(edges)),
    fenced("folders", folders.drawing),
    `<!-- drawing:folder-loops -->${folders.loops}<!-- /drawing:folder-loops -->`,
  ];
}

function replaceSection(doc: string, section: string): string {
  const name = /^<!-- drawing:([\w-]+) -->/.exec(section)![1]!;
  const pattern = new RegExp(`<!-- drawing:${name} -->[\\s\\S]*?<!-- /drawing:${name} -->`);
  if (!pattern.test(doc)) throw new Error(`docs/architecture.md has no section drawing:${name}`);
  return doc.replace(pattern, () => section);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { of: { type: "string" } } });
  if (values.of) {
    const edges = readImportGraph(values.of, DRAWN_FOLDERS);
    const { drawing, loops } = folderDrawing(edges);
    console.log(`${fenced("before", drawing)}\n\n${loops} loops of folders`);
  } else {
    const sections = architectureSections(projectImportGraph(fileURLToPath(new URL("..", import.meta.url))));
    writeFileSync(ARCHITECTURE_DOC, sections.reduce(replaceSection, readFileSync(ARCHITECTURE_DOC, "utf8")));
    console.log(`rewrote ${sections.length} drawings in docs/architecture.md`);
  }
}
