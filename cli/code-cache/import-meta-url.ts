/**
 * Injected into the CommonJS bundle of the CLI (`dist/bundle/cli.cjs`, see `bin/code-cache.js`) as
 * what `import.meta.url` stands for there: the URL of the ES module bundle's `cli.js` beside it. The
 * code that asks where it runs from (the package root, the bundle's validated copies, its worker files)
 * then finds the same answers in both bundles.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";

declare const __dirname: string;

export const importMetaUrl: string = pathToFileURL(join(__dirname, "cli.js")).href;
