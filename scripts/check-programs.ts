import { globSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

/**
 * One step of `npm run check` (scripts/check.ts): type-checks the TypeScript programs named on the command line and
 * lints their files with the same programs, so each program's types are built once (tsc, then eslint's type-aware rules
 * on programs of their own, built them twice: 140 s of CPU spent again). `--rest` also lints what is in none of the
 * programs (the JavaScript files).
 *
 * A file several programs hold is linted by the first of PROGRAMS holding it, as eslint.config.js's `project` list does.
 */
export const PROGRAMS = ['tsconfig.check.json', 'apps/web/tsconfig.json', 'e2e/tsconfig.json'];

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const rest = args.includes('--rest');
const mine = args.filter((a) => !a.startsWith('--'));
for (const name of mine) if (!PROGRAMS.includes(name)) throw new Error(`check-programs: ${name} is not one of ${PROGRAMS.join(', ')}`);

const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
let failed = false;

const configs = new Map<string, ts.ParsedCommandLine>();
/** A tsconfig read once (each read globs its includes over the tree). */
function parse(name: string): ts.ParsedCommandLine {
  const known = configs.get(name);
  if (known) return known;
  const read = ts.getParsedCommandLineOfConfigFile(
    path.join(root, name),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.formatDiagnostic(d, host));
      },
    },
  );
  if (!read) throw new Error(`check-programs: ${name} could not be read`);
  configs.set(name, read);
  return read;
}

// the types, as `tsc --noEmit -p <name>` reports them
const programs: ts.Program[] = [];
for (const name of mine) {
  const t0 = Date.now();
  const parsed = parse(name);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length) {
    failed = true;
    process.stdout.write(ts.formatDiagnostics(diagnostics, host));
  }
  console.log(`check: typecheck ${name} ${diagnostics.length ? 'FAILED' : 'ok'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  programs.push(program);
}

// the files this step lints: the files its programs list, less those an earlier program in PROGRAMS lists
const t0 = Date.now();
const eslint = new ESLint({
  cwd: root,
  // type information from the programs just checked (typescript-eslint's parserOptions.programs) instead of `project`
  overrideConfig: programs.length ? [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parserOptions: { programs } } }] : [],
});
const rootsOf = (name: string) => parse(name).fileNames.map((f) => path.resolve(f));
const inside = (f: string) => !path.relative(root, f).startsWith('..') && !f.split(path.sep).includes('node_modules');
const files = new Set<string>();
programs.forEach((program, i) => {
  const earlier = new Set(PROGRAMS.slice(0, PROGRAMS.indexOf(mine[i]!)).flatMap(rootsOf));
  for (const name of program.getRootFileNames()) {
    const file = path.resolve(name);
    if (inside(file) && !earlier.has(file)) files.add(file);
  }
});
if (rest) {
  // everything `eslint .` lints that no program lists: JavaScript, and any TypeScript file left out (an error there)
  const listed = new Set(PROGRAMS.flatMap(rootsOf));
  for (const f of globSync('**/*.{js,mjs,cjs,ts,tsx,mts,cts}', { cwd: root, exclude: (d) => ['node_modules', '.git'].includes(path.basename(d)) })) {
    const file = path.join(root, f);
    if (!listed.has(file)) files.add(file);
  }
}
const lintable: string[] = [];
for (const file of files) if (!(await eslint.isPathIgnored(file))) lintable.push(file);
const results = await eslint.lintFiles(lintable.sort());
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
if (problems) {
  failed = true;
  process.stdout.write(await (await eslint.loadFormatter('stylish')).format(results));
}
console.log(
  `check: lint ${mine.join(' + ') || '(no program)'}${rest ? ' and the rest' : ''}: ${lintable.length} files ${problems ? 'FAILED' : 'ok'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
);
process.exit(failed ? 1 : 0);
