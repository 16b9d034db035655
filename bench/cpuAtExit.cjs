// Preloaded (node --require) by cliStart.ts into each measured process: prints the CPU time the
// process used, which a busy shared machine inflates far less than the wall time. Written with
// fs.writeSync: process.stderr would load Node's stream and socket modules into every measured
// process (node -e 0 included), which the CLI itself does not load.
const fs = require('node:fs');
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  fs.writeSync(2, `\nBENCH_CPU_US ${user + system}\n`);
});
