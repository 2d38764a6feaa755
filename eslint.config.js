/**
 * ESLint checks one thing: no promise is left unhandled (a rejection nobody
 * awaits ends a Node process, and with it a Lambda sandbox). Type-aware
 * rules only; formatting is Prettier's, typing tsc's.
 */
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig([
  { ignores: ['cdk.out/**', '.local/**', 'coverage/**', 'bench/build/**', 'tools/**'] },
  {
    // console/src is typed by its own console/tsconfig.json, which the project service finds beside it.
    files: ['{lib,functions,infra,bench,test}/**/*.ts', 'console/src/**/*.{ts,tsx}'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
]);
