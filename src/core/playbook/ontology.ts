/**
 * The optional ontology that constrains facts (a workspace file, `.agent-memory/ontology.yaml`):
 * entity types and the relations between them.
 *
 *   types: [service, database, team]          # or a map: { service: "a deployable unit", … }
 *   relations:
 *     - { name: depends_on, from: service, to: [service, database], cardinality: many }
 *     - { name: owned_by,   from: service, to: team,                cardinality: one }
 *     - { name: runs_version, from: service, to: value,             cardinality: one }
 *
 * Entity typing rule: when an ontology is in force, a fact's subject is written `type:name`
 * (`service:billing`) and its type must be one the relation's `from` lists; so is the object,
 * unless the relation's `to` is `value`, which takes any literal (a version, a URL, a number).
 * `check` returns the fact with its entities written canonically (`type:name`, type lower
 * case), so `Service: billing` and `service:billing` are one entity. Without an ontology,
 * subjects and objects are free text and every predicate is many-valued (no conflicts).
 * `cardinality` defaults to many: only a relation declared `one` makes two different objects
 * of one subject a conflict.
 */
import { ValidationError } from '../errors';
import { normalizeKey } from './kinds';
import { YamlSource } from './yamlSource';

/** A relation's `to` that takes a literal instead of a typed entity. */
export const VALUE_TYPE = 'value';
const NAME = /^[a-z][a-z0-9_.-]*$/;

export interface OntologyRelation {
  /** Lower case; facts' predicates are matched to it after normalizeKey. */
  name: string;
  from: string[];
  /** Entity types, or 'value' for a literal object. */
  to: string[] | typeof VALUE_TYPE;
  cardinality: 'one' | 'many';
  description?: string;
}

/** A fact as the ontology accepted it, entities written `type:name`. */
export interface CheckedFact {
  subject: string;
  predicate: string;
  object: string;
  relation: OntologyRelation;
}

interface Problem {
  path: PropertyKey[];
  message: string;
}

export class Ontology {
  private readonly byName: Map<string, OntologyRelation>;

  constructor(
    readonly types: readonly string[],
    readonly relations: readonly OntologyRelation[],
  ) {
    this.byName = new Map(relations.map((r) => [r.name, r]));
  }

  /** Parses an ontology file; every problem is reported as "ontology.yaml line N: reason". */
  static parse(text: string, fileName = 'ontology.yaml'): Ontology {
    const src = YamlSource.parse(text, fileName);
    const problems: Problem[] = [];
    const root = src.value as Record<string, unknown>;
    if (!root || typeof root !== 'object' || Array.isArray(root))
      src.fail([{ path: [], message: 'must be a map with "types:" and "relations:"' }]);
    for (const k of Object.keys(root))
      if (k !== 'types' && k !== 'entities' && k !== 'relations')
        problems.push({ path: [k], message: `unknown key ${k}; an ontology has types (or entities) and relations` });
    // `entities:` is the playbook's name for the list of entity types (as its examples write it).
    if (root.types !== undefined && root.entities !== undefined)
      problems.push({ path: ['entities'], message: 'give the entity types once: types or entities, not both' });

    const types = readTypes(
      root.types ?? root.entities,
      problems,
      root.types === undefined && root.entities !== undefined ? 'entities' : 'types',
    );
    const relations: OntologyRelation[] = [];
    if (!Array.isArray(root.relations))
      problems.push({ path: ['relations'], message: 'relations must be a list of { name, from, to, cardinality }' });
    else
      root.relations.forEach((r, i) => {
        const rel = readRelation(r, [`relations`, i], new Set(types), problems);
        if (!rel) return;
        if (relations.some((x) => x.name === rel.name))
          problems.push({ path: ['relations', i, 'name'], message: `relation ${rel.name} is defined twice` });
        else relations.push(rel);
      });
    if (problems.length) src.fail(problems);
    return new Ontology(types, relations);
  }

  relation(predicate: string): OntologyRelation | undefined {
    return this.byName.get(normalizeKey(predicate));
  }

  /** True when a subject may hold one object of `predicate` at a time (declared `cardinality: one`). */
  isSingleValued(predicate: string): boolean {
    return this.relation(predicate)?.cardinality === 'one';
  }

  /** The fact with canonical entities, or a ValidationError saying what breaks the ontology and what is allowed. */
  check(fact: { subject: string; predicate: string; object: string }): CheckedFact {
    const relation = this.relation(fact.predicate);
    if (!relation) {
      throw new ValidationError(
        'predicate',
        `relation "${fact.predicate}" is not in the ontology; allowed relations: ${this.relations.map(describe).join('; ')}`,
      );
    }
    const subject = this.entity('subject', fact.subject, relation);
    if (!relation.from.includes(subject.type)) {
      const reversed =
        relation.to !== VALUE_TYPE && relation.from.includes(this.typeOf(fact.object) ?? '') && relation.to.includes(subject.type);
      throw new ValidationError(
        'subject',
        `${relation.name} goes from ${relation.from.join('|')} to ${target(relation)}, but the subject ${subject.text} is a ${subject.type}` +
          (reversed ? `; the direction is reversed: did you mean "${fact.object} ${relation.name} ${fact.subject}"?` : ''),
      );
    }
    if (relation.to === VALUE_TYPE) return { subject: subject.text, predicate: relation.name, object: fact.object.trim(), relation };
    const object = this.entity('object', fact.object, relation);
    if (!relation.to.includes(object.type)) {
      throw new ValidationError(
        'object',
        `${relation.name} goes from ${relation.from.join('|')} to ${target(relation)}, but the object ${object.text} is a ${object.type}`,
      );
    }
    return { subject: subject.text, predicate: relation.name, object: object.text, relation };
  }

  /** `Service: billing` → `service:billing` when the prefix is a type of the ontology; other text as it is. */
  canonical(entity: string): string {
    const type = this.typeOf(entity);
    return type ? `${type}:${entity.slice(entity.indexOf(':') + 1).trim()}` : entity;
  }

  private typeOf(entity: string): string | undefined {
    const colon = entity.indexOf(':');
    const type = colon > 0 ? entity.slice(0, colon).trim().toLowerCase() : undefined;
    return type && this.types.includes(type) ? type : undefined;
  }

  private entity(field: 'subject' | 'object', raw: string, relation: OntologyRelation): { type: string; text: string } {
    const colon = raw.indexOf(':');
    const name = colon > 0 ? raw.slice(colon + 1).trim() : '';
    const allowed = field === 'subject' ? relation.from : (relation.to as string[]);
    const example = `${allowed[0]}:${name || raw.trim() || 'name'}`;
    if (colon <= 0 || !name) {
      throw new ValidationError(
        field,
        `"${raw}" has no type; with the ontology, write entities as type:name, e.g. ${example} (types: ${this.types.join(', ')})`,
      );
    }
    const type = raw.slice(0, colon).trim().toLowerCase();
    if (!this.types.includes(type)) {
      throw new ValidationError(
        field,
        `type "${type}" is not in the ontology; types: ${this.types.join(', ')}; ${relation.name} takes ${field === 'subject' ? allowed.join('|') : target(relation)} here, e.g. ${example}`,
      );
    }
    return { type, text: `${type}:${name}` };
  }
}

function target(r: OntologyRelation): string {
  return r.to === VALUE_TYPE ? 'a value' : r.to.join('|');
}

function describe(r: OntologyRelation): string {
  return `${r.name} (${r.from.join('|')} → ${target(r)}, ${r.cardinality === 'one' ? 'one object' : 'many objects'})`;
}

function readTypes(value: unknown, problems: Problem[], key: 'types' | 'entities'): string[] {
  const names = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.keys(value) : undefined;
  if (!names || names.length === 0) {
    problems.push({ path: [key], message: `${key} must list the entity types, e.g. ${key}: [service, database, team]` });
    return [];
  }
  const out: string[] = [];
  names.forEach((n, i) => {
    const path = [key, Array.isArray(value) ? i : String(n)];
    if (typeof n !== 'string' || !NAME.test(n))
      problems.push({ path, message: `type ${String(n)} must be lower case letters, digits, _ . - (starting with a letter)` });
    else if (n === VALUE_TYPE) problems.push({ path, message: `"${VALUE_TYPE}" is reserved for relations whose object is a literal` });
    else if (out.includes(n)) problems.push({ path, message: `type ${n} is listed twice` });
    else out.push(n);
  });
  return out;
}

function readRelation(value: unknown, path: PropertyKey[], types: Set<string>, problems: Problem[]): OntologyRelation | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ path, message: 'a relation is a map { name, from, to, cardinality }' });
    return undefined;
  }
  const r = value as Record<string, unknown>;
  const name = typeof r.name === 'string' ? normalizeKey(r.name) : '';
  const label = name ? `relation ${name}` : `relation ${Number(path[1]) + 1}`;
  const before = problems.length;
  if (!NAME.test(name))
    problems.push({
      path: [...path, 'name'],
      message: `${label}: name must be lower case letters, digits, _ . - (starting with a letter)`,
    });
  for (const k of Object.keys(r)) {
    if (!['name', 'from', 'to', 'cardinality', 'description'].includes(k))
      problems.push({ path: [...path, k], message: `${label}: unknown key ${k}; a relation has name, from, to, cardinality, description` });
  }
  const typeList = (key: 'from' | 'to'): string[] => {
    const raw = r[key];
    const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
    if (list.length === 0) problems.push({ path: [...path, key], message: `${label}: \`${key}\` must name a type or a list of types` });
    for (const t of list) {
      if (key === 'to' && t === VALUE_TYPE && list.length === 1) continue;
      if (typeof t !== 'string' || !types.has(t)) {
        problems.push({
          path: [...path, key],
          message: `${label}: \`${key}\` names unknown type ${String(t)}${key === 'to' ? ` (types: ${[...types].join(', ')}, or ${VALUE_TYPE} for a literal)` : ` (types: ${[...types].join(', ')})`}`,
        });
      }
    }
    return list as string[];
  };
  const from = typeList('from');
  const to = typeList('to');
  const cardinality = r.cardinality ?? 'many';
  if (cardinality !== 'one' && cardinality !== 'many')
    problems.push({ path: [...path, 'cardinality'], message: `${label}: cardinality must be one or many` });
  if (r.description !== undefined && typeof r.description !== 'string')
    problems.push({ path: [...path, 'description'], message: `${label}: description must be text` });
  if (problems.length > before) return undefined;
  return {
    name,
    from,
    to: to.length === 1 && to[0] === VALUE_TYPE ? VALUE_TYPE : to,
    cardinality: cardinality as 'one' | 'many',
    ...(typeof r.description === 'string' ? { description: r.description } : {}),
  };
}
