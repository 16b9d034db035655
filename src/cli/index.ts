#!/usr/bin/env node
import { main } from './main';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`agent-memory: ${err.message}\n`);
    process.exitCode = 1;
  },
);
