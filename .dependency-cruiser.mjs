// .dependency-cruiser.mjs — the arrows of the house (docs/architecture.md, STYLE.md's layout), checked by
// `npm run lint`, so a wrong import fails CI instead of waiting for a review to notice it.
//
//   semconv     names only                        imports nothing
//   policy      the routing policy, pure          imports nothing outside policy/
//   record      the shared record types           imports policy types, nothing else
//   instrument  OpenTelemetry for the host        semconv, policy, record, @opentelemetry/api
//   trace       all input I/O → records           never instrument, analyze, cli or demo
//   analyze     pure analyses                     semconv, policy, record only
//   report      one report document, 3 renderers  analyze, record, semconv, trace's types; never cli or serve
//   serve       the OTLP receiver and live page   analyze, trace, record, semconv, report; never cli
//   cli         the yargs commands                analyze, trace, report, serve, record, semconv, demo
//   demo        the simulated agent               like a user: never analyze or cli
//   nothing imports cli; only cli imports serve
//
// Paths are those of the resolved modules (src/… for ours, node_modules/… or a bare name for the rest).

const LAYER = (name) => `^src/${name}/`;

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'nothing-imports-cli',
      comment:
        'cli/ is the outermost layer: the commands, main.ts and bin.ts. Nothing in src/ depends on it.',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYER('cli') },
      to: { path: LAYER('cli') },
    },
    {
      name: 'semconv-imports-nothing',
      comment: 'semconv/ holds the names every layer shares (strings only), so it depends on nothing.',
      severity: 'error',
      from: { path: LAYER('semconv') },
      to: { pathNot: LAYER('semconv') },
    },
    {
      name: 'policy-imports-nothing-outside-policy',
      comment: 'policy/ is the pure routing policy, published as the library: nothing outside policy/.',
      severity: 'error',
      from: { path: LAYER('policy') },
      to: { pathNot: LAYER('policy') },
    },
    {
      name: 'record-imports-policy-types-only',
      comment: 'record/ is types every layer shares; it may name the policy types and nothing else.',
      severity: 'error',
      from: { path: LAYER('record') },
      to: { pathNot: '^src/(record|policy)/' },
    },
    {
      name: 'record-imports-no-policy-code',
      comment: 'record/ may name the policy types, never run its code.',
      severity: 'error',
      from: { path: LAYER('record') },
      to: { path: LAYER('policy'), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'instrument-imports-semconv-policy-record-and-the-api',
      comment:
        'instrument/ runs inside the host agent: @opentelemetry/api (a peer dependency) and the ground floor, ' +
        'never the readers, the analyses, the CLI or an SDK.',
      severity: 'error',
      from: { path: LAYER('instrument') },
      to: { pathNot: ['^src/(instrument|semconv|policy|record)/', '^node_modules/@opentelemetry/api/'] },
    },
    {
      name: 'trace-never-imports-instrument-analyze-cli-demo',
      comment: 'trace/ turns input into records; it may use semconv, policy and record.',
      severity: 'error',
      from: { path: LAYER('trace') },
      to: { path: '^src/(instrument|analyze|report|serve|cli|demo)/' },
    },
    {
      name: 'analyze-imports-the-ground-floor-only',
      comment: 'analyze/ is pure: records in, a report object out. No I/O, no readers, no CLI.',
      severity: 'error',
      from: { path: LAYER('analyze') },
      to: { pathNot: '^src/(analyze|semconv|policy|record)/' },
    },
    {
      name: 'report-renders-analyses-only',
      comment:
        'report/ turns report objects into one document and renders it (text, Markdown, HTML): it reads the ' +
        "analyses' report types and the readers' input accounting, and never runs a reader, the server or the CLI.",
      severity: 'error',
      from: { path: LAYER('report') },
      to: { path: '^src/(cli|serve|demo|instrument)/' },
    },
    {
      name: 'report-imports-trace-types-only',
      comment: "report/ names the readers' input accounting (types) and never runs a reader.",
      severity: 'error',
      from: { path: LAYER('report') },
      to: { path: LAYER('trace'), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-cli-imports-serve',
      comment: 'serve/ is the long-running receiver behind `routescope serve`; only the CLI starts it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli|serve)/' },
      to: { path: LAYER('serve') },
    },
    {
      name: 'serve-never-instruments',
      comment:
        'serve/ receives what others recorded: readers, analyses and the report, never instrument or demo.',
      severity: 'error',
      from: { path: LAYER('serve') },
      to: { path: '^src/(instrument|demo)/' },
    },
    {
      name: 'cli-uses-analyze-and-trace-not-policy-or-instrument',
      comment:
        'The commands call the analyses and the readers; what they need of the policy comes through analyze/, ' +
        'and only the demo (through demo/) instruments anything.',
      severity: 'error',
      from: { path: LAYER('cli') },
      to: { path: '^src/(policy|instrument)/' },
    },
    {
      name: 'demo-uses-the-library-like-a-user',
      comment:
        'demo/ is an agent using instrument and trace the way a user would: never the analyses or the CLI.',
      severity: 'error',
      from: { path: LAYER('demo') },
      to: { path: LAYER('analyze') },
    },
    {
      name: 'public-exports-are-the-library',
      comment:
        'src/index.ts publishes the policy, the names and the instrumentation; the analyzer is the CLI.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/(trace|analyze|report|serve|cli|demo)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
