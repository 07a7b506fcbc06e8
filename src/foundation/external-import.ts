/**
 * `import()` of a module from outside the bundle: a package loaded on demand (a provider's SDK), a
 * `node:` builtin, a user's file. Code-cached, the CLI runs as a `vm.Script` (see `bin/code-cache.js`),
 * where Node 20 cannot run an `import()` of the script's own; its launcher lends one of its own
 * through {@link lendExternalImport}, and every such import goes through here. Elsewhere this is
 * `import()` itself.
 */

type Importer = (specifier: string) => Promise<unknown>;

let lent: Importer | undefined;

/** Makes {@link importExternal} use the launcher's `import()` (the code-cached CLI's launcher calls it first). */
export function lendExternalImport(importer: Importer): void {
  lent = importer;
}

/**
 * Imports a module from outside the bundle, as `import(specifier)` does.
 * @typeParam Module what the module exports (`typeof import("…")`).
 */
export function importExternal<Module>(specifier: string): Promise<Module> {
  return (lent ? lent(specifier) : import(specifier)) as Promise<Module>;
}
