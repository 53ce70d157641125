// Lint configuration: typescript-eslint's type-aware recommended rules for every TypeScript and Vue file
// (each typed through its package's tsconfig), eslint-plugin-vue for the web client, and a size limit on
// source files. Plain JavaScript (config files, build and summary scripts) is linted without types.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';

/** TypeScript and Vue files: linted with the type checker. */
const TYPED = ['**/*.{ts,mts,cts,vue}'];
/** Plain JavaScript: no tsconfig holds these, so they are linted without type information. */
const UNTYPED = ['**/*.{js,mjs,cjs}'];
/** Source files, whose length `max-lines` caps (tests and generated files aside). */
const SOURCES = [
  '**/src/**/*.{ts,mts,cts,js,mjs,cjs,vue}',
  '**/*.vue',
  'apps/server/bench/**/*.{ts,mts,js,mjs}',
  '**/scripts/**/*.{ts,mts,js,mjs,cjs}',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      '**/.test-data/**',
      'apps/server/src/generated/**',
      'packages/client/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...pluginVue.configs['flat/recommended'],
  {
    // The project service finds each file's tsconfig. The same `extraFileExtensions` for every file, so
    // that the service is not reconfigured each time the linter goes from a .ts file to a .vue one.
    // Two TypeScript files sit in no tsconfig: the summary reporter's declarations at the root, and the
    // web's screenshot script (its tsconfig leaves `scripts/` out); they use the base options.
    files: TYPED,
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['scripts/*.d.mts', 'apps/web/scripts/*.ts'],
          defaultProject: 'tsconfig.base.json',
        },
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.vue'],
      },
    },
    rules: {
      // Already in recommendedTypeChecked; named here because they are why the type checker is on.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    files: UNTYPED,
    ...tseslint.configs.disableTypeChecked,
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
    },
  },
  {
    // A source file stays readable in one sitting: 600 lines, every line counted (blank and comment
    // lines too). Split a longer one along what it does.
    files: SOURCES,
    rules: { 'max-lines': ['error', { max: 600 }] },
  },
);
