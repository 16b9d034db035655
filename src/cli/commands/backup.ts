import * as fs from 'node:fs';
import * as path from 'node:path';
import { ValidationError } from '../../core/errors';
import { syncDir, writeAll } from '../../store/sqljs/atomicFile';
import type { CommandGroup } from '../command';
import { bool } from '../flags';
import { show } from '../format';
import { readTextFile } from '../io';

/** Backups and imports: every tier's rows as JSON Lines, and the seed documents' lines. */
export const BACKUP_COMMANDS: CommandGroup = {
  export: {
    usage: 'export [FILE] [--memories-only]',
    summary:
      'a backup: every memory version, then every record of the other tiers (episodes, facts, skills, proposals, reports), as JSON Lines, to FILE or stdout',
    details:
      'A record line has a "kind" field; import reads both. --memories-only writes the memory versions alone (the format of earlier releases).',
    options: { 'memories-only': { type: 'boolean' } },
    positionals: 'optional',
    run: async (ctx) => {
      const file = ctx.args[0];
      // Written aside and renamed at the end, so a failed export never leaves a truncated FILE.
      const partial = `${file}.partial`;
      const fd = file ? fs.openSync(partial, 'w') : undefined;
      const out = (row: object) => {
        const line = `${JSON.stringify(row)}\n`;
        if (fd !== undefined) writeAll(fd, line);
        else ctx.io.stdout(line);
      };
      let versions = 0;
      let records = 0;
      try {
        for await (const row of ctx.services.upkeep.exportVersions()) {
          out(row);
          versions++;
        }
        if (!bool(ctx.flags, 'memories-only'))
          for await (const row of ctx.services.store.records.exportRecords()) {
            out(row);
            records++;
          }
        if (fd !== undefined) fs.fsyncSync(fd);
      } catch (err) {
        if (fd !== undefined) {
          fs.closeSync(fd);
          fs.rmSync(partial, { force: true });
        }
        throw err;
      }
      if (fd !== undefined) fs.closeSync(fd);
      if (file) {
        fs.renameSync(partial, file);
        syncDir(path.dirname(path.resolve(file)));
        ctx.io.stderr(`Exported ${versions} memory version(s) and ${records} record(s) to ${file}.\n`);
      }
    },
  },
  import: {
    usage: 'import FILE',
    // Rows without a channel of their own are recorded as imported.
    channel: 'import',
    summary:
      "add the memory versions and records of an export, or the seeds' memory and episode lines, that are not stored yet (idempotent)",
    details:
      'Reads JSON Lines of four shapes: exported memory versions (rowId) and records (kind), as export writes them; ' +
      'memory lines of the first seed (id, description, tags, content, changedAt, optional deletedAt: several lines of one id are its versions, ' +
      'in changedAt order; deletedAt soft-deletes); episode lines of the second seed (id, timestamp, task, outcome, tools, errors, resolution, tags, source). ' +
      'Importing a file again adds nothing (a seed memory line is known by id and changedAt, a seed episode by id). ' +
      'Every line is checked before anything is written: a bad line is named and nothing is imported.',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const text = readTextFile('FILE', ctx.args[0]!);
      // Each shape apart, with its line numbers for messages.
      const shapes = { versions: lines(), records: lines(), seedMemories: lines(), seedEpisodes: lines() };
      text.split('\n').forEach((line, i) => {
        if (!line.trim()) return;
        let row: unknown;
        try {
          row = JSON.parse(line);
        } catch {
          throw new ValidationError(`line ${i + 1}`, 'is not valid JSON; nothing was imported');
        }
        if (row === null || typeof row !== 'object' || Array.isArray(row))
          throw new ValidationError(`line ${i + 1}`, 'is not a JSON object; nothing was imported');
        const into =
          'kind' in row
            ? shapes.records
            : 'rowId' in row
              ? shapes.versions
              : 'task' in row || 'outcome' in row
                ? shapes.seedEpisodes
                : shapes.seedMemories;
        into.rows.push(row);
        into.lines.push(i + 1);
      });
      const at = (s: { lines: number[] }) => (i: number) => `line ${s.lines[i]}`;
      // Every line is checked (and the seeds' lines turned into rows) before anything is written.
      const { upkeep, playbook } = await ctx.allServices();
      const records = playbook.checkRecords(shapes.records.rows, at(shapes.records));
      const versions = upkeep.checkVersions(shapes.versions.rows, at(shapes.versions));
      const seedVersions = await upkeep.seedVersions(shapes.seedMemories.rows, at(shapes.seedMemories));
      const seedEpisodes = await playbook.episodes.seedRecords(shapes.seedEpisodes.rows, at(shapes.seedEpisodes));
      const v = await upkeep.importChecked([...versions, ...seedVersions]);
      const recordRows = [...records, ...seedEpisodes];
      const r = await playbook.importChecked(recordRows);
      // Seed lines already stored were left out before the write: count them as skipped.
      const seedMemoryLines = shapes.seedMemories.rows.length;
      const seedEpisodeLines = shapes.seedEpisodes.rows.length;
      const skipped = v.skipped + seedMemoryLines - seedVersions.length;
      const out = {
        added: v.added,
        skipped,
        records: { added: r.added, skipped: r.skipped + seedEpisodeLines - seedEpisodes.length },
      };
      show(
        ctx,
        out,
        `Imported ${out.added} version(s); ${out.skipped} skipped (already present, or of a purged memory).\n` +
          (recordRows.length || seedEpisodeLines
            ? `Imported ${out.records.added} record(s) of the other tiers; ${out.records.skipped} skipped (already present, or forgotten).\n`
            : ''),
      );
    },
  },
};

/** Rows of one shape of an import file, with the line each came from. */
function lines(): { rows: unknown[]; lines: number[] } {
  return { rows: [], lines: [] };
}
