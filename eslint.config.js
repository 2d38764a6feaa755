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
    files: ['{lib,functions,infra,bench,test}/**/*.ts'],
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
