import { main } from './main';

// Output piped into a reader that stops early (`agent-memory list | head`): the reader has what it
// wanted, so end quietly with 0, as git and gh do, rather than die on EPIPE with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  process.stderr.write(`agent-memory: writing the output failed: ${err.message}\n`);
  process.exit(1);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`agent-memory: ${err.message}\n`);
    process.exitCode = 1;
  },
);
