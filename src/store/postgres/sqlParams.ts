import { CONTENT_MARK } from '../../core/search/analysis';

/** A term as a one-lexeme tsquery, quoted (as `to_tsquery` would not). */
export function lexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The lexeme of a term held among a memory's content terms (analysis.ts, flatTerms). */
export function contentLexeme(term: string): string {
  return lexeme(CONTENT_MARK + term);
}

/** A statement's values, each added once where the text refers to it. */
export class Params {
  readonly values: unknown[];
  constructor(project: string) {
    this.values = [project];
  }
  /** The placeholder of a new value. */
  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}
