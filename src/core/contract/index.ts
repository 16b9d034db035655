/** The contract: every tool's and operation's input and output, defined once. */
export * from './citations';
export * from './context';
export * from './episodes';
export * from './facts';
export * from './fields';
export * from './pages';
export * from './memories';
export * from './memoryTools';
export * from './pending';
export * from './playbookTools';
export * from './skills';
export * from './toolDefinition';
export * from './transcripts';
export * from './tools';
export { parseInput } from './validate';
