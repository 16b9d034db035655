import { PENDING_NOTE, type ProposalOutput } from '../contract/pending';
import { ProposeSkillInput } from '../contract/skills';
import * as T from '../contract/playbookTools';
import { parseInput } from '../contract/validate';
import type { Playbook } from './playbook';
import { formatSkillYaml } from './skillYaml';

type Runner = (playbook: Playbook, args: unknown, caller: string) => Promise<unknown>;

/** The caller's proposal, told as pending (never as saved). */
async function propose(playbook: Playbook, target: 'fact' | 'skill', payload: unknown, caller: string): Promise<ProposalOutput> {
  const r = await playbook.proposals.propose({ target, payload, proposedBy: caller });
  return { ...r, note: PENDING_NOTE };
}

// A Map, not an object literal: a tool named "constructor" must not reach Object's.
const RUNNERS = new Map<string, Runner>([
  [T.contextTool.name, (l, args) => l.context.context(args)],
  [T.recordEpisodeTool.name, (l, args) => l.episodes.record(args)],
  [T.queryFactsTool.name, (l, args) => l.facts.query(args)],
  [T.assertFactTool.name, (l, args, caller) => propose(l, 'fact', args, caller)],
  // A model retracts as a model: disputed and verified facts are refused (a person settles those).
  [T.retractFactTool.name, (l, args) => l.facts.retract(args, 'model')],
  [T.findSkillsTool.name, (l, args) => l.skills.find(args)],
  [T.readSkillTool.name, async (l, args) => {
    const { data, ...skill } = await l.skills.read(args);
    return { ...skill, yaml: formatSkillYaml(data, skill.version) };
  }],
  [T.proposeSkillTool.name, (l, args, caller) => propose(l, 'skill', parseInput(ProposeSkillInput, args).yaml, caller)],
]);

// A tool added to the contract without a runner fails at start-up, not at its first call.
const missing = T.PLAYBOOK_TOOLS.filter((t) => !RUNNERS.has(t.name)).map((t) => t.name);
if (missing.length) throw new Error(`no runner for ${missing.join(', ')}`);

export function isPlaybookTool(name: string): boolean {
  return RUNNERS.has(name);
}

/**
 * Runs one of the playbook tools with raw arguments (each service validates them) and returns
 * the contract's output. `caller` is who proposes (the author, or the agent's host).
 */
export function runPlaybookTool(playbook: Playbook, name: string, args: unknown, caller: string): Promise<unknown> {
  const run = RUNNERS.get(name);
  if (!run) throw new Error(`unknown playbook tool ${name}`);
  return run(playbook, args ?? {}, caller);
}
