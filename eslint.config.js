import tseslint from 'typescript-eslint';

export default tseslint.config({ ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/screenshots/**'] }, ...tseslint.configs.recommended, {
  rules: {
    '@typescript-eslint/no-explicit-any': 'off',
    '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
  },
});
