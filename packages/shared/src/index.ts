export * from './codes.ts';
export * from './limits.ts';
export * from './rights.ts';
export * from './languages.ts';
export * from './contracts/index.ts';
export * from './devices.ts';
