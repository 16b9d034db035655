import type { CommandGroup } from '../command';
import { formatDuplicates, show } from '../format';

/** Likely duplicate memories, for a person to merge (edit one, delete the other; history is kept). */
export const DUPLICATE_COMMANDS: CommandGroup = {
  duplicates: {
    usage: 'duplicates',
    summary:
      'pairs of live memories whose descriptions and tags closely match, most similar first; merge one into the other with edit and delete',
    options: {},
    positionals: 'none',
    // One likely-duplicate check per live memory: on a team database, answered in a local index
    // once it has loaded rather than by a server query each.
    longLived: true,
    run: async (ctx) => {
      const pairs = await ctx.services.upkeep.likelyDuplicates();
      show(ctx, pairs, formatDuplicates(pairs));
    },
  },
};
