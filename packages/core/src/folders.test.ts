/**
 * The folders of packages/core/src import each other without a loop: a stage imports only
 * earlier stages and the kernels (`geometry/`, `turns/`, `types`, `errors`), and `check/` — an
 * independent judge of plans — imports no planner stage.
 *
 * A unit is a folder directly under src/, or a file directly in src/ (without `.ts`). The graph
 * is read from the relative `import … from` / `export … from` / `import()` specifiers of the
 * non-test `.ts` files.
 *
 * And the source stays readable in pieces: no non-test file over MAX_FILE_LINES lines, `plan.ts`
 * (the pipeline) at most MAX_PIPELINE_LINES, no function (declaration, expression, arrow or
 * method) over MAX_FUNCTION_LINES. Functions are read from the syntax tree (rolldown's parser),
 * so a nested closure counts on its own and a brace in a string or comment ends nothing.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 150;
const MAX_PIPELINE_LINES = 60;
const FUNCTION_NODES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const SPECIFIER = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function unitOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.ts$/, '');
}

/** Unit → the other units it imports. */
export function importGraph(src: string = SRC): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const from = unitOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), (m[1] ?? m[2]).replace(/\.js$/, ''));
      if (relative(src, target).startsWith('..')) continue;
      const to = unitOf(target);
      if (to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

interface Node {
  type: string;
  start: number;
  end: number;
}

function isNode(v: unknown): v is Node {
  return (
    typeof v === 'object' && v !== null && typeof (v as Node).type === 'string' && typeof (v as Node).start === 'number'
  );
}

/** `line:lines` of every function in `source` over `maxLines` lines. */
export function longFunctions(source: string, maxLines: number): string[] {
  const lineOf = (offset: number): number => lineCount(source.slice(0, offset + 1));
  const found: string[] = [];
  const visit = (node: Node): void => {
    if (FUNCTION_NODES.has(node.type)) {
      const lines = lineOf(node.end - 1) - lineOf(node.start) + 1;
      if (lines > maxLines) found.push(`${lineOf(node.start)}:${lines}`);
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value))
        for (const v of value) {
          if (isNode(v)) visit(v);
        }
      else if (isNode(value)) visit(value);
    }
  };
  visit(parseAst(source, { lang: 'ts' }) as unknown as Node);
  return found;
}

/** Strongly connected components of more than one unit (each an import loop), sorted. */
export function importLoops(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>(),
    low = new Map<string, number>();
  const stack: string[] = [],
    onStack = new Set<string>(),
    loops: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return loops;
}

/** What `check/` may import: kernels and the request reader, never a planner stage. */
const CHECK_MAY_IMPORT = new Set(['geometry', 'turns', 'types', 'errors', 'request', 'version']);

describe('packages/core/src folders', () => {
  const graph = importGraph();

  it('import each other without a loop', () => {
    expect(graph.size).toBeGreaterThan(5);
    expect(importLoops(graph)).toEqual([]);
  });

  it('check/ imports no planner stage', () => {
    expect([...(graph.get('check') ?? [])].filter((u) => !CHECK_MAY_IMPORT.has(u)).sort()).toEqual([]);
  });

  it('the loop finder sees a loop of three units and ignores a chain', () => {
    const g = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set<string>()],
    ]);
    expect(importLoops(g)).toEqual([['a', 'b', 'c']]);
    g.get('c')!.delete('a');
    expect(importLoops(g)).toEqual([]);
  });
});

describe('packages/core/src sizes', () => {
  const files = sourceFiles(SRC).map((p) => ({ path: relative(SRC, p), text: readFileSync(p, 'utf8') }));

  it(`no source file over ${MAX_FILE_LINES} lines; plan.ts at most ${MAX_PIPELINE_LINES}`, () => {
    expect(files.length).toBeGreaterThan(50);
    expect(
      files.filter((f) => lineCount(f.text) > MAX_FILE_LINES).map((f) => `${f.path}:${lineCount(f.text)}`),
    ).toEqual([]);
    expect(lineCount(files.find((f) => f.path === 'plan.ts')!.text)).toBeLessThanOrEqual(MAX_PIPELINE_LINES);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.flatMap((f) => longFunctions(f.text, MAX_FUNCTION_LINES).map((at) => `${f.path}:${at}`))).toEqual([]);
  });

  it('the function finder measures declarations, arrows and methods, strings and comments included', () => {
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  x += ${i}; // }\n`).join('');
    const source =
      `function a() {\n${body(3)}}\nconst b = () => {\n  const s = '}';\n${body(5)}};\nclass C { m() ` +
      `{\n${body(8)}} }\n`;
    expect(longFunctions(source, 5)).toEqual([`6:8`, `14:10`]);
    expect(longFunctions(source, 10)).toEqual([]);
  });
});
