import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import local from './eslint/local-rules.js'

// The browser must get zod through common/zod.ts, which turns off its eval probe (our CSP forbids eval).
const zodThroughCommon = { name: 'zod', message: "Import z from '#common/zod.ts' (it disables zod's eval probe, which the CSP forbids)." }

export default tseslint.config(
  {
    ignores: [
      'build/',
      '.react-router/',
      'node_modules/',
      'data/',
      'test-results/',
      'playwright-report/',
      'bench-results/',
      'extension/.output/',
      'extension/.wxt/',
      'sdk/src/schema.ts',
      'sdk/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // The layout's rules (docs/decisions/001): kebab-case files, no import cycles, and no feature
  // importing a sibling feature's code (types may cross).
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    plugins: { local, 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: {
      'local/kebab-case-files': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['server/features/**/*.{ts,tsx}', 'app/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { local },
    rules: { 'local/no-sibling-feature-imports': 'error' },
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
  // The browser extension (docs/decisions/030): browser code that may use common/, never the
  // server's or the app's code; its tests load the server's target resolver and browser to check it.
  {
    files: ['extension/src/**/*.{ts,tsx}'],
    ignores: ['extension/src/**/*.test.ts', 'extension/src/recorder/testing/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [zodThroughCommon],
          patterns: [
            {
              group: ['#server/*', '#app/*', 'node:*'],
              message: 'The extension runs in the browser: it may import common/, not server/, app/ or Node.',
            },
          ],
        },
      ],
    },
  },
  // The SDK (sdk/README.md) is its own package for browsers and Node alike: openapi-fetch and the
  // generated types, nothing of this repository's and nothing of Node's.
  {
    files: ['sdk/src/**/*.ts'],
    ignores: ['sdk/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['#server/*', '#app/*', '#common/*', 'node:*', '../../*'],
              message: 'The SDK is published alone and runs in browsers: it may import openapi-fetch and its own files only.',
            },
          ],
        },
      ],
    },
  },
)
