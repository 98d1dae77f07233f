/** Jest runs the TypeScript sources as native ESM through ts-jest; e2e tests spawn the bundled dist/cli.js. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/test/**/*.test.tsx'],
  testTimeout: 60000,
  maxWorkers: 2,
  setupFiles: ['<rootDir>/test/support/jest-setup.ts'],
};
