import type { Database, SqlValue, Statement } from 'sql.js';

/**
 * Prepared statements over one sql.js database, prepared on first use and kept until
 * `invalidate()` (older sql.js releases freed every prepared statement on export()).
 */
export class Statements {
  private statements = new Map<string, Statement>();

  constructor(protected readonly db: Database) {}

  invalidate(): void {
    // Freeing twice is harmless; not freeing would leak statements where export() keeps them.
    for (const s of this.statements.values()) s.free();
    this.statements.clear();
  }

  protected stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  private static rows(s: Statement, params: SqlValue[]): SqlValue[][] {
    s.bind(params);
    const out: SqlValue[][] = [];
    while (s.step()) out.push(s.get());
    return out;
  }

  protected all(sql: string, params: SqlValue[]): SqlValue[][] {
    const s = this.stmt(sql);
    try {
      return Statements.rows(s, params);
    } finally {
      s.reset();
    }
  }

  /** For statements whose text varies with their input (IN lists): prepared, run, freed. */
  protected once(sql: string, params: SqlValue[]): SqlValue[][] {
    const s = this.db.prepare(sql);
    try {
      return Statements.rows(s, params);
    } finally {
      s.free();
    }
  }

  protected first(sql: string, params: SqlValue[]): SqlValue[] | undefined {
    return this.all(sql, params)[0];
  }
}
