/**
 * The house drawn from imports (`npx depcruise --config .dependency-cruiser.cjs .`; run by
 * test/unit/architecture.test.ts and `npm run lint`): each source folder imports only itself and
 * the folders below it in LAYERS, the sink only core and client, core nothing impure, the
 * explorer's browser modules only what runs in a browser, and no file imports itself through
 * a circle (type-only imports count: a circle of types is the same knot for a reader).
 */
/** Bottom to top. */
const LAYERS = [
  'core',
  'projections',
  'node',
  'checkpoint',
  'queries',
  'services',
  'p2p',
  'api',
  'client',
  // api/explorer/: the browser's pages, above the client they use; served by api/, imported by nothing below.
  'explorer',
  'sink',
  'simulator',
  'launch',
  'cli',
  'e2e',
];

/** Where a layer's files are: its top-level folder, the explorer's inside api/. */
const folderOf = (layer) => (layer === 'explorer' ? 'api/explorer' : layer);
/** A pattern for the files under any of `layers`. */
const under = (layers) => `^(${layers.map(folderOf).join('|')})/`;

/** What core may not import: storage, network, frameworks, the process (test/unit/core/purity.test.ts keeps the rest of purity). */
const IMPURE = [
  '^(node_modules/)?(level|classic-level|hono|@hono/[^/]+|libp2p|@libp2p/[^/]+|@chainsafe/[^/]+|rxjs|nodemailer)(/|$)',
  '^(node:)?(fs|fs/promises|net|http|https|dgram|child_process|worker_threads|os|process)$',
];

module.exports = {
  forbidden: [
    ...LAYERS.map((layer, i) => ({
      name: `layer-${layer}`,
      comment: `${layer}/ imports only itself and the folders below it${i ? `: ${LAYERS.slice(0, i).join(', ')}` : ''}`,
      severity: 'error',
      // The explorer lives in api/ to be served but runs in the browser: its own rule below.
      from: { path: under([layer]), ...(layer === 'api' ? { pathNot: under(['explorer']) } : {}) },
      to: { pathNot: [under(LAYERS.slice(0, i + 1)), '^node_modules/'], dependencyTypesNot: ['core'] },
    })),
    {
      name: 'sink-public-interface',
      comment: 'the sink follows a node only through its public interface: core and client',
      severity: 'error',
      from: { path: '^sink/' },
      to: { path: under(LAYERS), pathNot: under(['sink', 'core', 'client']) },
    },
    {
      name: 'core-is-pure',
      comment: 'core imports no storage, network, framework or process module',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: IMPURE },
    },
    {
      name: 'explorer-browser-only',
      comment:
        "the explorer's modules run in the browser: they import each other, the client, core (pure) and the tables the server derives for them, and uPlot",
      severity: 'error',
      from: { path: '^api/explorer/' },
      to: { pathNot: ['^api/explorer/', '^client/', '^core/', '^api/explorerTxTables\\.ts$', '^node_modules/uplot/'] },
    },
    {
      name: 'explorer-is-served-not-imported',
      comment: 'server code serves the explorer as files and never imports its browser modules (their tests do)',
      severity: 'error',
      from: { pathNot: ['^api/explorer/', '^test/'] },
      to: { path: '^api/explorer/' },
    },
    {
      name: 'no-circular',
      comment: 'no file imports itself through a circle, in any folder (tests included)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'every import names a file or package that exists',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Packages are leaves: their own imports are theirs.
    doNotFollow: { path: '^node_modules/' },
    // node_modules may be a link to a shared install: paths stay under it.
    preserveSymlinks: true,
    exclude: { path: ['^test/fixtures/', '^api/explorer/vendor/'] },
    // Type-only imports count.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
