import type * as Yaml from 'yaml';
import type * as PlaybookFiles from '../../platform/playbookConfig';
import { defaultStoreDir } from '../../platform/storeLocation';
import type { CommandGroup } from '../command';
import { int } from '../flags';
import { show } from '../format';

/** The lifecycle: forgetting runs and their reports, and the two files that steer the playbook (policy.yaml, ontology.yaml). */
export const LIFECYCLE_COMMANDS: CommandGroup = {
  'lifecycle run': {
    usage: 'lifecycle run',
    summary: 'run the forgetting rules now (expire facts, forget or archive old episodes, propose skills) and print the report',
    options: {},
    positionals: 'none',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      show(ctx, await playbook.runForgetting('cli'));
    },
  },
  'lifecycle report': {
    usage: 'lifecycle report [--limit N]',
    summary: 'recent forgetting runs: what expired, was forgotten or archived, what was promoted, how often search results were read',
    options: { limit: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const limit = int(ctx.flags, 'limit');
      const { playbook } = await ctx.allServices();
      show(ctx, await playbook.lifecycle.reports(limit !== undefined ? { limit } : {}));
    },
  },
  'policy show': {
    usage: 'policy show',
    summary:
      "the lifecycle policy in force (defaults, then the store folder's policy.yaml), and the file's keys that are not used, with why",
    details:
      "policy.yaml is read as the playbook writes it too: the tiers at the top level or under memory:, and its keys this product has no use for (working.keep_recent_turns, a tier's backend) accepted and listed here as not used.",
    options: {},
    positionals: 'none',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const policy = playbook.policy();
      // Loaded here, not by every command: they are loaded with the playbook's services.
      const [YAML, files]: [typeof Yaml, typeof PlaybookFiles] = await Promise.all([
        import('yaml'),
        import('../../platform/playbookConfig'),
      ]);
      const notes = new files.PlaybookConfig(ctx.storeDir ?? defaultStoreDir(ctx.cwd)).policyNotes();
      const text =
        YAML.stringify(policy) +
        (notes.length ? `\nNot used:\n${notes.map((n) => `  ${n.key}${n.line ? ` (line ${n.line})` : ''}: ${n.why}\n`).join('')}` : '');
      show(ctx, { policy, notUsed: notes }, text);
    },
  },
  'ontology check': {
    usage: 'ontology check',
    summary: "check the store folder's ontology.yaml (line and reason when broken) and list its relations",
    options: {},
    positionals: 'none',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const o = playbook.ontology();
      if (!o)
        return show(ctx, { ontology: null }, 'No ontology.yaml in the store folder: facts are not checked against types and relations.\n');
      const relations = o.relations.map((r) => ({ name: r.name, from: r.from, to: r.to, cardinality: r.cardinality }));
      show(
        ctx,
        { relations },
        `ontology.yaml is valid; relations:\n${relations.map((r) => `  ${r.name}: ${r.from} → ${r.to} (${r.cardinality})\n`).join('')}`,
      );
    },
  },
};
