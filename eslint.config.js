import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// The browser must get zod through common/zod.ts, which turns off its eval probe (our CSP forbids eval).
const zodThroughCommon = { name: 'zod', message: "Import z from '#common/zod.ts' (it disables zod's eval probe, which the CSP forbids)." }

export default tseslint.config(
  { ignores: ['build/', '.react-router/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'bench-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [zodThroughCommon],
          // The browser bundle must never pull in server code: only types may cross.
          patterns: [
            {
              group: ['#server/*', '../server/*', '../../server/*'],
              allowTypeImports: true,
              message: 'app/ may import only types from server/; loaders get services from context.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['common/**/*.ts'],
    ignores: ['common/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [zodThroughCommon],
          patterns: [
            {
              group: ['#server/*', '#app/*', 'node:*'],
              message: 'common/ holds pure schemas and constants: no server, app or Node imports.',
            },
          ],
        },
      ],
    },
  },
)
