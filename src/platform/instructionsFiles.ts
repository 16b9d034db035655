import * as fs from 'node:fs';
import * as path from 'node:path';
import { INSTRUCTION_TARGETS, type InstructionTarget, mergeInstructions, type MergeOutcome } from '../core/agentInstructions';
import { ValidationError } from '../core/errors';
import { writeFileAtomic } from '../store/sqljs/atomicFile';

/** What writing one instructions file did. */
export interface InstructionsFileResult {
  target: InstructionTarget;
  /** The file, absolute. */
  file: string;
  outcome: MergeOutcome;
}

/** A file's text, or undefined when it does not exist; refuses a file that is not UTF-8, whose bytes a rewrite would change. */
function readText(file: string, shown: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    throw new ValidationError(shown, 'is not UTF-8 text, so it cannot be rewritten without changing it; nothing was written');
  }
  return text;
}

/**
 * Writes the agent instructions into each target's file under the workspace folder `root`
 * (the shared CLI and VS Code entry point): creates the file and its folders when missing,
 * otherwise merges between the markers (core/agentInstructions.ts), keeping the rest byte for
 * byte. Each file is replaced whole (temp file, fsync, rename) or not at all, and one that is
 * already up to date is not touched. Every file is checked before any is written, so a refusal
 * (bad markers, not UTF-8) leaves all of them as they were.
 */
export function writeInstructionsFiles(root: string, targets: readonly InstructionTarget[]): InstructionsFileResult[] {
  const planned = targets.map((target) => {
    const relative = INSTRUCTION_TARGETS[target].file;
    const file = path.join(root, relative);
    return { target, file, ...mergeInstructions(readText(file, relative), target, relative) };
  });
  for (const { file, text, outcome } of planned) {
    if (outcome === 'unchanged') continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, text);
  }
  return planned.map(({ target, file, outcome }) => ({ target, file, outcome }));
}
