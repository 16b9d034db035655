/**
 * One measurement in a fresh process, so that open times are cold and RSS belongs to one
 * store only. Usage: child.ts <phase> <plan.json> [dir]; prints one RESULT line of JSON.
 */
import * as fs from 'node:fs';
import { runNaive } from './baselines';
import { openOnce, runOurs } from './ours';
import { type Plan, RESULT_PREFIX } from './plan';

async function main(): Promise<void> {
  const [phase, planFile, dir] = process.argv.slice(2);
  const plan = JSON.parse(fs.readFileSync(planFile!, 'utf8')) as Plan;
  let result: unknown;
  if (phase === 'open') {
    const { figures, store } = await openOnce(dir ?? plan.storeDir, plan.selective[0]!);
    result = figures;
    // Closing a store opened from the journal alone would write a snapshot; nothing here needs it.
    if (dir === undefined) await store.close();
  } else if (phase === 'ours') {
    result = await runOurs(plan);
  } else if (phase === 'naive') {
    result = await runNaive(plan);
  } else {
    throw new Error(`unknown phase ${phase}`);
  }
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
