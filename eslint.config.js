// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Type-aware lint. The limits on src/ are the ones the clean-up issue asks for: a function longer
 * than 60 lines or with more than 20 paths is doing more than one job (tests are exempt: a test
 * reads top to bottom as a story). Promise rules catch the fire-and-forget and misused promises
 * that let a failure vanish.
 */
export default tseslint.config(
  // strategies/.*: the strategy copies tests write and remove while the checks run beside them;
  // .cache/: the checks' caches and the CLI the e2e tests compile.
  {
    ignores: [
      'node_modules/',
      'dist/',
      'data/',
      'test-artifacts/',
      'coverage/',
      '.cache/',
      'strategies/.*',
      '.scratch/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `void promise` is no handling: a promise rejection nobody catches ends the process.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // The compiler resolves every name; the core rule does not know TypeScript's globals.
      'no-undef': 'off',
      // `let x!: T` read by a closure before its one assignment cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON answers off the wire and hand async callbacks to fakes: the unsafe-any and
    // require-await rules would only add casts there, not catch bugs.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // A test starts work and inspects it half-way (`void gate.admit(...)`, then advance the clock).
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      // A ws message is a Buffer on Node; the rule cannot see that through ws's RawData union.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      complexity: ['error', 20],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
