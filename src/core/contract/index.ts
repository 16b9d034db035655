/** The contract: every tool's and operation's input and output, defined once. */
export * from './fields';
export * from './schemas';
export * from './tools';
export { parseInput } from './validate';
