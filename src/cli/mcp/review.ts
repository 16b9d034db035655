import type { CallToolResult, ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { citationLabel } from '../../core/citations';
import * as C from '../../core/contract';
import { ValidationError } from '../../core/errors';
import { findTool, proposeMemoryWrite, runTool, type ToolContext } from '../../core/tools/runner';

import type { ReviewMode } from './reviewModes';

/** The tools that write; every other tool only reads (or proposes, which is already a queue). */
const WRITES = new Set<string>([C.createTool.name, C.editTool.name, C.deleteTool.name, C.recordEpisodeTool.name, C.retractFactTool.name]);

export function isWriteTool(name: string): boolean {
  return WRITES.has(name);
}

/** The mode in force: the server's, unless the team's policy requires review and the server said direct. */
export function effectiveReviewMode(asked: ReviewMode, policy: { review: { agent_writes: 'required' | 'optional' } }): ReviewMode {
  return asked === 'direct' && policy.review.agent_writes === 'required' ? 'ask' : asked;
}

export interface Review {
  mode: ReviewMode;
  /** Asks the person through the client; undefined when the client cannot (no form elicitation). */
  elicit?: (params: ElicitRequestFormParams) => Promise<ElicitResult>;
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const said = (t: string): CallToolResult => ({ content: [text(t)] });
const NOT_SAVED = 'nothing was saved; ask the person what to change before trying again, or go on without it.';

function record(args: unknown): Record<string, unknown> {
  return args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

/** What the person is asked about a write, and the fields they may change (a memory's description and tags). */
async function question(
  ctx: ToolContext,
  tool: C.ToolDefinition,
  args: Record<string, unknown>,
): Promise<{ message: string; editable: boolean; current?: { description: string; tags: string[] } }> {
  const quote = (s: string) => s.replace(/\n/g, '\n  ');
  if (tool === C.createTool) {
    const m = ctx.memories.checkCreate(args);
    return {
      message:
        'An agent wants to save this memory for the team. Check it; you may change the description and the tags.\n\n' +
        `Description: ${m.description}\nTags: ${m.tags.join(', ')}\n` +
        (m.citations?.length ? `Cites: ${m.citations.map(citationLabel).join(', ')}\n` : '') +
        `Content:\n  ${quote(m.content)}`,
      editable: true,
      current: { description: m.description, tags: m.tags },
    };
  }
  if (tool === C.editTool) {
    const e = ctx.memories.checkEdit(args);
    const cur = await ctx.memories.editable(e.id);
    const lines = [`An agent wants to change memory ${e.id} "${cur.description}" (version ${cur.version}).`];
    if (e.description !== undefined && e.description !== cur.description)
      lines.push(`Description: ${cur.description}\n  → ${e.description}`);
    if (e.tags !== undefined && e.tags.join() !== cur.tags.join()) lines.push(`Tags: ${cur.tags.join(', ')}\n  → ${e.tags.join(', ')}`);
    if (e.content !== undefined && e.content !== cur.content)
      lines.push(`New content:\n  ${quote(e.content)}\nReplaces:\n  ${quote(cur.content)}`);
    if (e.citations !== undefined) lines.push(`Cites: ${e.citations.map(citationLabel).join(', ') || '(none)'}`);
    return {
      message: lines.join('\n\n'),
      editable: true,
      current: { description: e.description ?? cur.description, tags: e.tags ?? cur.tags },
    };
  }
  if (tool === C.deleteTool) {
    const d = C.parseInput(C.DeleteInput, args);
    const cur = await ctx.memories.editable(d.id);
    return {
      message: `An agent wants to delete memory ${d.id} "${cur.description}" (version ${cur.version}). It stays in the history and can be restored.`,
      editable: false,
    };
  }
  if (tool === C.recordEpisodeTool) {
    const e = C.parseInput(C.RecordEpisodeInput, args);
    const list = (xs: string[]) => xs.join(', ') || '—';
    return {
      message:
        'An agent wants to record this episode in the team memory.\n\n' +
        `Task: ${e.task}\nOutcome: ${e.outcome}\nTools: ${list(e.tools)}\n` +
        (e.errors.length ? `Errors:\n${e.errors.map((x) => `  - ${x}`).join('\n')}\n` : '') +
        (e.resolution ? `Resolution: ${e.resolution}\n` : '') +
        `Tags: ${list(e.tags)}\nSource: ${e.source.type} ${e.source.ref}` +
        (e.skill ? `\nSkill followed: ${e.skill.name} v${e.skill.version}` : ''),
      editable: false,
    };
  }
  const r = C.parseInput(C.RetractFactInput, args);
  return { message: `An agent wants to retract fact ${r.id}: ${r.reason}`, editable: false };
}

/** The form: a memory's description and tags to change, or nothing (accept or decline). */
function form(q: Awaited<ReturnType<typeof question>>): ElicitRequestFormParams {
  const requestedSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: {} };
  if (q.editable && q.current) {
    requestedSchema.properties = {
      description: { type: 'string', title: 'Description', default: q.current.description, maxLength: C.LIMITS.descriptionMax },
      tags: { type: 'string', title: 'Tags (comma-separated)', default: q.current.tags.join(', ') },
    };
  }
  return { mode: 'form', message: q.message, requestedSchema };
}

/**
 * Runs a write tool under review. Refusals (a bad input, a missing memory) come back as tool
 * errors before anyone is asked; the person's answer decides the rest, and the model is told
 * exactly what happened: saved (and with which changes), pending, or not saved.
 */
export async function reviewedWrite(
  ctx: ToolContext,
  name: string,
  rawArgs: unknown,
  review: Review,
  log: (line: string) => void,
): Promise<CallToolResult> {
  const tool = findTool(name)!;
  const args = record(rawArgs);
  if (review.mode === 'ask' && review.elicit) {
    const q = await question(ctx, tool, args);
    let answer: ElicitResult;
    try {
      answer = await review.elicit(form(q));
    } catch (err) {
      log(`agent-memory mcp: the client could not ask the person: ${(err as Error).message}`);
      return said(`The person could not be asked (the client failed to show the review): ${NOT_SAVED}`);
    }
    if (answer.action === 'decline') return said(`The person declined this write: ${NOT_SAVED}`);
    if (answer.action !== 'accept') return said(`The person dismissed the review without deciding: ${NOT_SAVED}`);
    let final = args;
    let changes = '';
    if (q.editable && q.current && answer.content) {
      const description = typeof answer.content.description === 'string' ? answer.content.description.trim() : q.current.description;
      const tags =
        typeof answer.content.tags === 'string'
          ? answer.content.tags
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean)
          : q.current.tags;
      if (description !== q.current.description || tags.join() !== q.current.tags.join()) {
        final = { ...args, description, tags };
        changes = ` The person changed it before saving: description "${description}", tags [${tags.join(', ')}].`;
      }
    }
    const output = await runTool(tool, ctx, final);
    return { content: [text(JSON.stringify(output)), text(`A person reviewed and approved this write.${changes}`)] };
  }
  // Queued: only memory creates and edits have a place in the Pending queue.
  if (tool === C.createTool || tool === C.editTool) {
    const action = tool === C.createTool ? 'create' : 'edit';
    if (action === 'edit' && typeof args.id !== 'string') ctx.memories.checkEdit(args); // refuses with the usual message
    const proposal = await proposeMemoryWrite(ctx, action, args);
    return { content: [text(JSON.stringify(proposal))], structuredContent: proposal };
  }
  throw new ValidationError(
    '',
    `this server lets a person review every write, and ${review.mode === 'queue' ? 'queues writes' : 'your client cannot ask them (no MCP elicitation)'}; ` +
      `${name} cannot be queued, so nothing was written. Tell the user what you wanted to do: they can do it in VS Code or with the agent-memory CLI.`,
  );
}
