import type { z } from 'zod';
import * as C from '../contract';
import type { MemoryService } from '../memoryService';
import type { Playbook } from '../playbook/playbook';
import { formatSkillYaml } from '../playbook/skillYaml';

/** What a tool call runs against, and who is calling. */
export interface ToolContext {
  memories: MemoryService;
  playbook: Playbook;
  /** Recorded as the proposer of what the model proposes (a person's name, and the client it came through). */
  caller: () => string;
}

type Output<T extends C.ToolDefinition> = z.output<T['output']>;
type Handler<T extends C.ToolDefinition> = (ctx: ToolContext, args: unknown) => Promise<Output<T>>;

/** The caller's proposal, told as pending (never as saved). */
async function propose(ctx: ToolContext, target: 'fact' | 'skill', payload: unknown): Promise<C.ProposalOutput> {
  const r = await ctx.playbook.proposals.propose({ target, payload, proposedBy: ctx.caller() });
  return { ...r, note: C.PENDING_NOTE };
}

const HANDLERS = new Map<string, Handler<C.ToolDefinition>>();
/** Registers the handler of one tool; its output is checked against the tool's output type. */
function on<T extends C.ToolDefinition>(tool: T, handler: Handler<T>): void {
  HANDLERS.set(tool.name, handler);
}

// Each handler hands the raw arguments to its service, which validates them against the
// contract (one set of messages for every client), and returns the contract's output.
on(C.searchTool, async ({ memories, playbook }, args) => {
  const hits = await memories.search(args);
  // Counted so the lifecycle report can say how many results were read afterwards.
  playbook.searchReads.searched(hits.map((h) => h.id));
  return hits;
});
on(C.createTool, ({ memories }, args) => memories.create(args));
on(C.editTool, ({ memories }, args) => memories.edit(args));
on(C.readTool, async ({ memories, playbook }, args) => {
  const memory = await memories.read(args);
  playbook.searchReads.read(memory.id);
  return memory;
});
on(C.deleteTool, ({ memories }, args) => memories.delete(args));
on(C.tagsTool, ({ memories }, args) => memories.tags(args));
on(C.contextTool, ({ playbook }, args) => playbook.context.context(args));
on(C.recordEpisodeTool, ({ playbook }, args) => playbook.episodes.record(args));
on(C.findEpisodesTool, ({ playbook }, args) => playbook.episodes.find(args));
on(C.queryFactsTool, ({ playbook }, args) => playbook.facts.query(args));
on(C.assertFactTool, (ctx, args) => propose(ctx, 'fact', args));
// A model retracts as a model: disputed and verified facts are refused (a person settles those).
on(C.retractFactTool, ({ playbook }, args) => playbook.facts.retract(args, 'model'));
on(C.findSkillsTool, ({ playbook }, args) => playbook.skills.find(args));
on(C.readSkillTool, async ({ playbook }, args) => {
  const { data, ...skill } = await playbook.skills.read(args);
  return { ...skill, yaml: formatSkillYaml(data, skill.version) };
});
on(C.proposeSkillTool, (ctx, args) => propose(ctx, 'skill', C.parseInput(C.ProposeSkillInput, args).yaml));

// A tool added to the contract without a handler fails at start-up, not at its first call.
const missing = C.ALL_TOOLS.filter((t) => !HANDLERS.has(t.name)).map((t) => t.name);
if (missing.length) throw new Error(`no tool handler for ${missing.join(', ')}`);

/** The contract's tool of that name, or undefined. */
export function findTool(name: string): C.ToolDefinition | undefined {
  return C.ALL_TOOLS.find((t) => t.name === name);
}

/**
 * Runs one contract tool with the raw arguments a client sent (no arguments at all count as
 * {}, so the message names the missing fields) and returns the tool's output. Every client
 * calls tools through here; what stays with a client is its confirmation, its review step and
 * how it words the result.
 */
export function runTool<T extends C.ToolDefinition>(tool: T, ctx: ToolContext, args: unknown): Promise<Output<T>> {
  const handler = HANDLERS.get(tool.name);
  if (!handler) throw new Error(`unknown tool ${tool.name}`);
  return handler(ctx, args ?? {}) as Promise<Output<T>>;
}

/**
 * A memory create or edit queued for a person instead of written (review mode "queue"): checked
 * now by the same rules as a direct write, written when a person approves it.
 */
export async function proposeMemoryWrite(
  ctx: ToolContext,
  action: 'create' | 'edit',
  input: Record<string, unknown>,
): Promise<C.ProposalOutput> {
  const { id, ...fields } = input;
  const target = action === 'edit' ? { targetId: String(id) } : {};
  const r = await ctx.playbook.proposals.propose({
    target: 'memory',
    action,
    ...target,
    payload: action === 'edit' ? fields : input,
    proposedBy: ctx.caller(),
  });
  return { ...r, note: C.PENDING_NOTE };
}
