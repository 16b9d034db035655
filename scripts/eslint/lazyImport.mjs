// local/lazy-import: an `import()` (a module loaded when first needed, e.g. pg only for a database
// store) must name a string literal that the same file also imports statically, `import type`
// being enough. The dependency rule (no-restricted-imports) sees only import statements, so a
// dynamic import would otherwise hide a dependency from it; paired, nothing is hidden.
export const lazyImport = {
  meta: {
    type: 'problem',
    docs: { description: 'import() only of a module the file also imports statically' },
    schema: [],
    messages: {
      literal: 'import() takes a string literal, so the dependency rule and the bundler see what it loads.',
      unpaired:
        "import('{{source}}') loads a module this file does not import statically: add `import type { … } from '{{source}}'` so the dependency rule sees it.",
    },
  },
  create(context) {
    const statics = new Set();
    const lazy = [];
    return {
      ImportDeclaration(node) {
        statics.add(node.source.value);
      },
      ImportExpression(node) {
        if (node.source.type !== 'Literal' || typeof node.source.value !== 'string') context.report({ node, messageId: 'literal' });
        else lazy.push(node);
      },
      'Program:exit'() {
        for (const node of lazy) {
          if (!statics.has(node.source.value)) context.report({ node, messageId: 'unpaired', data: { source: node.source.value } });
        }
      },
    };
  },
};
