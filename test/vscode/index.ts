// Entry point VS Code loads as extensionTestsPath (built to dist-test/vscode/index.js): runs
// the suites built next to it (dist-test/vscode/*.test.js) with mocha, inside the real
// extension host. Only console output leaves the host (the page forwards it to
// scripts/vscode-test/run.mjs), so each result is logged as it happens (see output.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { log, RESULT_PREFIX, type SuiteResult } from './output';

const { EVENT_SUITE_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

/** Prints each result as it happens and, at the end, one machine-readable line of counts. */
class ConsoleReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const indent = (r: Mocha.Runnable | Mocha.Suite) => '  '.repeat(Math.max(0, r.titlePath().length - 1));
    runner.on(EVENT_SUITE_BEGIN, (s: Mocha.Suite) => {
      if (s.title) log(`${indent(s)}${s.title}`);
    });
    runner.on(EVENT_TEST_PASS, (t: Mocha.Test) => log(`${indent(t)}✓ ${t.title} (${t.duration ?? 0} ms)`));
    runner.on(EVENT_TEST_PENDING, (t: Mocha.Test) => log(`${indent(t)}- ${t.title} (pending)`));
    runner.on(EVENT_TEST_FAIL, (t: Mocha.Runnable, err: Error) => log(`${indent(t)}✗ ${t.title}\n${err.stack ?? err.message}`));
    runner.once(EVENT_RUN_END, () => {
      const s = this.stats;
      const result: SuiteResult = { passed: s.passes, failed: s.failures, pending: s.pending };
      console.log(`${RESULT_PREFIX}${JSON.stringify(result)}`);
    });
  }
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: ConsoleReporter });
  // File-name order, except: extension.test.js first (it measures a cold activation, before any
  // other suite activates the extension) and agentMode.test.js last (it enables and starts the
  // built-in Copilot Chat extension, which the other suites should not run beside).
  // VSCODE_TEST_SUITES=review,tools runs only those suites (a developer's quick loop; npm test runs all).
  const only = (process.env.VSCODE_TEST_SUITES ?? '').split(',').filter(Boolean);
  const rank = (f: string) => (f === 'extension.test.js' ? 0 : f === 'agentMode.test.js' ? 2 : 1);
  const suites = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .filter((f) => !only.length || only.some((name) => f.startsWith(`${name}.`)));
  for (const f of suites) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        if (failures > 0) reject(new Error(`${failures} VS Code test(s) failed`));
        else if (runner.total === 0) reject(new Error(`no tests found in ${__dirname}`));
        else resolve();
      });
    } catch (err) {
      reject(err as Error);
    }
  });
}
