import { strict as assert } from 'node:assert';
import { Ontology, VALUE_TYPE } from '../../../src/core/playbook/ontology';
import { ONTOLOGY } from './playbookHelpers';
import { refusal } from '../../helpers/assertions';

describe('Ontology (entity types and relations that constrain facts)', () => {
  it('parses types and relations; cardinality defaults to many, `to: value` takes literals', () => {
    const o = Ontology.parse(ONTOLOGY);
    assert.deepEqual(o.types, ['service', 'database', 'team']);
    assert.deepEqual(o.relation('depends_on'), { name: 'depends_on', from: ['service'], to: ['service', 'database'], cardinality: 'many' });
    assert.equal(o.relation('runs_version')!.to, VALUE_TYPE);
    assert.equal(o.isSingleValued('Owned_By'), true);
    assert.equal(o.isSingleValued('depends_on'), false);
    assert.equal(o.isSingleValued('unknown'), false);
    // Types may also be a map of descriptions.
    assert.deepEqual(Ontology.parse('types:\n  service: a deployable unit\nrelations: []\n').types, ['service']);
  });

  it('reports a broken file with the line and reason of every problem', () => {
    const typo = refusal(() => Ontology.parse(ONTOLOGY.replace('to: [service, database]', 'to: [Servce]')));
    assert.equal(
      typo.message,
      'ontology.yaml line 9: relation depends_on: `to` names unknown type Servce (types: service, database, team, or value for a literal)',
    );
    const many = refusal(() =>
      Ontology.parse('types: [a]\nrelations:\n  - name: x\n    from: a\n    to: a\n    cardinality: two\n    extra: 1\n'),
    );
    assert.match(many.message, /line 6: relation x: cardinality must be one or many; ontology\.yaml line 7: relation x: unknown key extra/);
    const twice = refusal(() =>
      Ontology.parse('types: [a]\nrelations:\n  - { name: x, from: a, to: a }\n  - name: x\n    from: a\n    to: a\n'),
    );
    assert.equal(twice.message, 'ontology.yaml line 4: relation x is defined twice');
    assert.match(refusal(() => Ontology.parse('types: [a, value]\nrelations: []\n')).message, /line 1: "value" is reserved/);
    assert.match(
      refusal(() => Ontology.parse('types: [a]\nrelations:\n  - name: x\n    from: [a\n')).message,
      /^ontology\.yaml line \d+: /,
    );
    assert.match(
      refusal(() => Ontology.parse('relations: []\n', 'team.yaml')).message,
      /^team\.yaml line 1: types must list the entity types/,
    );
  });

  it('checks a fact: canonical typed entities, unknown relations listed, wrong direction and wrong types named', () => {
    const o = Ontology.parse(ONTOLOGY);
    const ok = o.check({ subject: 'Service: billing', predicate: 'Owned_By', object: 'team:payments' });
    assert.deepEqual([ok.subject, ok.predicate, ok.object], ['service:billing', 'owned_by', 'team:payments']);
    assert.equal(o.check({ subject: 'service:billing', predicate: 'runs_version', object: 'https://x/v1.2' }).object, 'https://x/v1.2');

    const unknown = refusal(() => o.check({ subject: 'service:billing', predicate: 'deploys_to', object: 'x' }));
    assert.equal(unknown.field, 'predicate');
    assert.match(
      unknown.message,
      /relation "deploys_to" is not in the ontology; allowed relations: owned_by \(service → team, one object\); depends_on \(service → service\|database, many objects\); runs_version \(service → a value, one object\)/,
    );

    const reversed = refusal(() => o.check({ subject: 'team:payments', predicate: 'owned_by', object: 'service:billing' }));
    assert.equal(reversed.field, 'subject');
    assert.match(
      reversed.message,
      /owned_by goes from service to team, but the subject team:payments is a team; the direction is reversed: did you mean "service:billing owned_by team:payments"\?/,
    );

    const wrongObject = refusal(() => o.check({ subject: 'service:billing', predicate: 'owned_by', object: 'database:pg' }));
    assert.equal(wrongObject.field, 'object');
    assert.match(wrongObject.message, /the object database:pg is a database/);

    assert.match(
      refusal(() => o.check({ subject: 'billing', predicate: 'owned_by', object: 'team:x' })).message,
      /"billing" has no type; .* e\.g\. service:billing/,
    );
    assert.match(
      refusal(() => o.check({ subject: 'servce:billing', predicate: 'owned_by', object: 'team:x' })).message,
      /type "servce" is not in the ontology; types: service, database, team/,
    );
  });

  it('canonicalises entities of known types only', () => {
    const o = Ontology.parse(ONTOLOGY);
    assert.equal(o.canonical('Service:  billing'), 'service:billing');
    assert.equal(o.canonical('https://example.com'), 'https://example.com');
  });
});
