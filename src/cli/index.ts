import { writeOut } from './io';
import { main } from './main';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    writeOut(2, `agent-memory: ${err.message}\n`);
    process.exitCode = 1;
  },
);
