/**
 * Counts type assertions (`x as T`, `<T>x`) and non-null assertions (`x!`) per top-level folder by
 * walking each file's TypeScript syntax tree, so strings and comments that look like casts do not
 * count. `as const` is counted apart: it narrows a literal rather than overriding the checker.
 *
 * `node test/helpers/assertionCount.ts` prints one table row per folder; `--list casts|nonNull`
 * prints every site instead.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { layerFolders } from './dependencyRules.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/**
 * The folders counted: the layers' top-level folders, bottom to top, as .dependency-cruiser.cjs
 * lists them (the one place a layer is added), then the tests.
 */
const COUNTED_FOLDERS = [...(await layerFolders()), 'test'];

/** One assertion found in the tree. */
interface AssertionSite {
  file: string;
  line: number;
  kind: 'cast' | 'asConst' | 'nonNull';
  text: string;
}

/** The counts of one folder. */
interface FolderCount {
  folder: string;
  casts: number;
  asConst: number;
  nonNull: number;
  /** Lines of TypeScript in the folder. */
  lines: number;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules') return [];
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every type assertion and non-null assertion in one source text. */
function assertionSites(file: string, text: string): AssertionSite[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const sites: AssertionSite[] = [];
  const add = (node: ts.Node, kind: AssertionSite['kind']) =>
    sites.push({
      file,
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      kind,
      text: node.getText(source).replace(/\s+/g, ' ').slice(0, 120),
    });
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const constant = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
      add(node, constant ? 'asConst' : 'cast');
    } else if (ts.isNonNullExpression(node)) add(node, 'nonNull');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sites;
}

/** Every assertion under the counted folders, paths relative to the repository root. */
export function allSites(root = ROOT): AssertionSite[] {
  return COUNTED_FOLDERS.flatMap((folder) =>
    tsFiles(join(root, folder)).flatMap((f) => assertionSites(relative(root, f), readFileSync(f, 'utf8'))),
  );
}

/** Counts per folder, in COUNTED_FOLDERS order. */
function countPerFolder(sites: AssertionSite[], root = ROOT): FolderCount[] {
  return COUNTED_FOLDERS.map((folder) => {
    const mine = sites.filter((s) => s.file.split('/')[0] === folder);
    const n = (kind: AssertionSite['kind']) => mine.filter((s) => s.kind === kind).length;
    const lines = tsFiles(join(root, folder)).reduce((a, f) => a + readFileSync(f, 'utf8').split('\n').length - 1, 0);
    return { folder, casts: n('cast'), asConst: n('asConst'), nonNull: n('nonNull'), lines };
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sites = allSites();
  const list = process.argv.indexOf('--list');
  if (list >= 0) {
    const kind = process.argv[list + 1] === 'nonNull' ? 'nonNull' : 'cast';
    for (const s of sites.filter((x) => x.kind === kind)) console.log(`${s.file}:${s.line}  ${s.text}`);
  } else {
    const rows = countPerFolder(sites);
    const source = rows.filter((r) => r.folder !== 'test');
    const sum = (k: 'casts' | 'asConst' | 'nonNull' | 'lines', rs: FolderCount[]) => rs.reduce((a, r) => a + r[k], 0);
    console.log('folder       casts  as-const  non-null   lines  casts/1000');
    const total = {
      folder: 'source',
      casts: sum('casts', source),
      asConst: sum('asConst', source),
      nonNull: sum('nonNull', source),
      lines: sum('lines', source),
    };
    for (const r of [...rows, total])
      console.log(
        `${r.folder.padEnd(12)} ${String(r.casts).padStart(5)} ${String(r.asConst).padStart(9)} ${String(r.nonNull).padStart(9)} ${String(r.lines).padStart(7)} ${((1000 * r.casts) / Math.max(1, r.lines)).toFixed(1).padStart(11)}`,
      );
  }
}
