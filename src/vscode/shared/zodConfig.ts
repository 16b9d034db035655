import { config } from 'zod';

// The VS Code extension host logs an error (PendingMigrationError: "navigator is now a global in
// nodejs") whenever code reads the global `navigator`, and zod reads it once, when it decides
// whether to compile its object parsers, unless told to run jitless. extension.ts imports this
// module first, before any schema is built; parsing a tool's input without the compiled parser
// costs microseconds.
config({ jitless: true });
