/**
 * One measurement in a fresh process, so that open times are cold and RSS belongs to one
 * store only. Usage: child.ts <phase> <plan.json> [dir]; prints one RESULT line of JSON.
 * Phases open, ours, naive take a memories Plan; facts-open, facts-ours, facts-naive a FactsPlan.
 */
import * as fs from 'node:fs';
import { runNaive } from './baselines';
import { runFactsNaive } from './factsNaive';
import { openFacts, runFactsOurs } from './factsOurs';
import { type MergePlan, runMerge } from './gitMerge';
import type { FactsPlan } from './factsPlan';
import { openOnce, runOurs } from './ours';
import { type Plan, RESULT_PREFIX } from './plan';
import { parseViewJson } from './viewJson';

async function main(): Promise<void> {
  const [phase, planFile, dir] = process.argv.slice(2);
  const json: unknown = JSON.parse(fs.readFileSync(planFile!, 'utf8'));
  const plan = json as Plan;
  const factsPlan = json as FactsPlan;
  let result: unknown;
  if (phase === 'facts-open') {
    const { figures, store } = await openFacts(factsPlan);
    result = figures;
    await store.close();
  } else if (phase === 'facts-ours') {
    result = await runFactsOurs(factsPlan);
  } else if (phase === 'facts-naive') {
    result = await runFactsNaive(factsPlan);
  } else if (phase === 'open' || phase === 'open-before') {
    // open-before: a journal without a snapshot builds the database first, as before issue 17.
    const options = phase === 'open-before' ? { viewFirstFrom: Number.MAX_SAFE_INTEGER } : {};
    const { figures, store } = await openOnce(dir ?? plan.storeDir, plan.selective[0]!, options);
    result = figures;
    // Closing a store opened from the journal alone would write a snapshot; nothing here needs it.
    if (dir === undefined) await store.close();
  } else if (phase === 'merge' || phase === 'merge-rebuild') {
    result = await runMerge(json as MergePlan, phase === 'merge');
  } else if (phase === 'view-json') {
    result = parseViewJson(dir!);
  } else if (phase === 'ours') {
    result = await runOurs(plan);
  } else if (phase === 'naive') {
    result = await runNaive(plan);
  } else {
    throw new Error(`unknown phase ${phase}`);
  }
  // A write to a pipe completes asynchronously: exiting before it drains would cut the line.
  await new Promise<void>((resolve, reject) =>
    process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`, (err) => (err ? reject(err) : resolve())),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
