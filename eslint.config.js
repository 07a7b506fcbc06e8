// Lint (`npm run lint`, run by .ci/run): typescript-eslint's recommended type-checked rules over every
// TypeScript file, with the few settings below, each for a stated reason.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", ".cache/", "runs/", "coverage/", "**/*.js", "**/*.mjs"] },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["vitest.config.ts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A leading underscore marks a deliberately unused binding (an interface's parameter, a key
      // destructured away from the rest).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Modules implement Promise-returning interfaces (NluModule.understand, …); an engine that
      // answers synchronously is still `async`, which keeps its errors rejections.
      "@typescript-eslint/require-await": "off",
      // An AbortSignal's reason is whatever the caller aborted with; cancellation rejects with it as is.
      "@typescript-eslint/prefer-promise-reject-errors": [
        "error",
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
    },
  },
  {
    // Tests and the fake servers handle wire JSON and parsed command output as the untyped data it
    // is, and assert its shape with expect(); typing each parse would only restate the assertions.
    files: ["tests/**/*.ts", "test-support/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // The resilience tests throw the plain objects HTTP clients throw ({status, headers}).
      "@typescript-eslint/only-throw-error": "off",
    },
  },
);
