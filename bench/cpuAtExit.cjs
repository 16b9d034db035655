// Preloaded (node --require) by cliStart.ts into each measured process: prints the CPU time the
// process used, which a busy shared machine inflates far less than the wall time.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\nBENCH_CPU_US ${user + system}\n`);
});
