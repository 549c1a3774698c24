/**
 * The bench's results: rows, their sides and targets, the JSON written under
 * bench/results/ and the Markdown tables printed on stdout.
 */

/** Summary of timed samples, in milliseconds. */
export type Stat = {
  /** How many samples. */
  n: number
  mean: number
  p50: number
  p95: number
  min: number
  max: number
}

/** One side of a row: ours, the published SDK, or a floor/baseline. */
export type Side = {
  /** Who was measured, with its version (`magic-sdk 33.13.0`). */
  name: string
  role: 'ours' | 'theirs' | 'floor'
  /** The number the row compares (its unit is the row's). */
  value: number
  /** Timings behind `value`, when it is a latency. */
  stat?: Stat | undefined
  /** More numbers of this side (a size row's total, minified sizes, …). */
  detail?: Record<string, number> | undefined
}

/** A target of the issue, checked against a row. */
export type Target = { text: string; pass: boolean }

export type Row = {
  /** The table the row goes in. */
  group: 'latency' | 'ready' | 'size' | (string & {})
  /** Stable id, for comparing runs. */
  id: string
  /** What was measured. */
  title: string
  /** How, when a title is measured more than one way (the bundler). */
  variant?: string | undefined
  unit: 'ms' | 'bytes'
  sides: Side[]
  /** ours ÷ theirs, on `value`. */
  ratio: number
  /** ours ÷ floor, on `value`, when there is a floor. */
  floorRatio?: number | undefined
  target?: Target | undefined
}

export type Report = {
  timestamp: string
  mode: 'full' | 'smoke'
  /**
   * Whether the dApp page and the iframes were on different sites (out of
   * process, as a real provider's iframe is) or on one (`--same-site`).
   */
  sites: 'cross-site' | 'same-site'
  machine: {
    cpus: number
    cpuModel: string
    platform: string
    node: string
    chromium: string
  }
  /** The versions compared. */
  packages: Record<string, string>
  /** What each iteration count was. */
  iterations: Record<string, number>
  rows: Row[]
}

/** Summarises samples (nearest-rank percentiles). */
export function summarise(samples: readonly number[]): Stat {
  if (samples.length === 0) throw new Error('No samples to summarise.')
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
  return {
    n: sorted.length,
    mean: sorted.reduce((sum, x) => sum + x, 0) / sorted.length,
    p50: rank(0.5),
    p95: rank(0.95),
    min: sorted[0]!,
    max: sorted.at(-1)!,
  }
}

/** Builds a row from its sides; the ratios come from `value`. */
export function row(
  fields: Omit<Row, 'ratio' | 'floorRatio' | 'target'>,
  target?: (ours: Side, theirs: Side, floor: Side | undefined) => Target,
): Row {
  const ours = fields.sides.find((side) => side.role === 'ours')
  const theirs = fields.sides.find((side) => side.role === 'theirs')
  const floor = fields.sides.find((side) => side.role === 'floor')
  if (!ours || !theirs)
    throw new Error(`Row ${fields.id} needs an ours and a theirs side.`)
  return {
    ...fields,
    ratio: ours.value / theirs.value,
    floorRatio: floor ? ours.value / floor.value : undefined,
    target: target?.(ours, theirs, floor),
  }
}

const ms = (x: number) =>
  x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)
const kib = (bytes: number) => (bytes / 1024).toFixed(2)
const times = (x: number | undefined) =>
  x === undefined ? '' : `${x < 0.1 ? x.toFixed(3) : x.toFixed(2)}×`

function latencyCell(side: Side | undefined): string {
  if (!side) return ''
  const { stat } = side
  if (!stat) return `${ms(side.value)} ms`
  return `${ms(side.value)} ms (p50 ${ms(stat.p50)}, p95 ${ms(stat.p95)})`
}

/** A heap reading, and how far it is over its baseline. */
function bytesCell(side: Side | undefined): string {
  if (!side) return ''
  const retained = side.detail?.retained
  return `${kib(side.value)} KiB${retained === undefined ? '' : ` (${retained >= 0 ? '+' : ''}${kib(retained)} over the baseline)`}`
}

/** The first column's heading of each group's table. */
const headings: Record<string, string> = {
  latency: 'Round trip',
  ready: 'Iframe ready',
  memory: 'Memory',
  'game-wallet': 'Game wallet',
}

function targetCell(target: Target | undefined): string {
  if (!target) return ''
  return `${target.pass ? 'pass' : '**miss**'}: ${target.text}`
}

function table(header: string[], body: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...body.map((cells) => `| ${cells.join(' | ')} |`),
  ].join('\n')
}

const sideOf = (row: Row, role: Side['role']) =>
  row.sides.find((side) => side.role === role)

/** The report as Markdown: one table per group, headed by the machine. */
export function toMarkdown(report: Report): string {
  const { machine, packages } = report
  const parts = [
    `Measured ${report.timestamp} (${report.mode}, ${report.sites} iframes) on ${machine.cpus} × ${machine.cpuModel}, ${machine.platform}, Node ${machine.node}, Chromium ${machine.chromium}; ${Object.entries(
      packages,
    )
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
  ]
  const groups = [...new Set(report.rows.map((r) => r.group))]
  for (const group of groups) {
    const rows = report.rows.filter((r) => r.group === group)
    const first = rows[0]!
    const oursName = sideOf(first, 'ours')?.name ?? 'ours'
    if (group === 'size') {
      parts.push(
        table(
          [
            `Size, gzipped (KiB)`,
            'bundler',
            'ours: with the page',
            'ours: total',
            'published',
            'published: with the page',
            'published: total',
            'ours ÷ published (page)',
            'target',
          ],
          rows.map((r) => {
            const ours = sideOf(r, 'ours')!
            const theirs = sideOf(r, 'theirs')!
            return [
              r.title,
              r.variant ?? '',
              kib(ours.value),
              kib(ours.detail?.total ?? Number.NaN),
              theirs.name,
              kib(theirs.value),
              kib(theirs.detail?.total ?? Number.NaN),
              times(r.ratio),
              targetCell(r.target),
            ]
          }),
        ),
      )
      continue
    }
    const theirsName = sideOf(first, 'theirs')?.name ?? 'theirs'
    // The game wallet compares with a published SDK in some rows and with
    // a baseline (an EOA send, viem straight to the node) in others: each
    // cell then names its side.
    const mixed = rows.some((r) => sideOf(r, 'theirs')?.name !== theirsName)
    const floorName = sideOf(first, 'floor')?.name
    const unitCell = first.unit === 'bytes' ? bytesCell : latencyCell
    const cell = (side: Side | undefined) =>
      mixed && side?.role === 'theirs'
        ? `${side.name}: ${unitCell(side)}`
        : unitCell(side)
    parts.push(
      table(
        [
          headings[group] ?? group,
          oursName,
          mixed ? 'compared with' : theirsName,
          ...(floorName ? [floorName] : []),
          mixed ? 'ours ÷ compared' : 'ours ÷ published',
          ...(floorName ? ['ours ÷ floor'] : []),
          'target',
        ],
        rows.map((r) => [
          r.title,
          cell(sideOf(r, 'ours')),
          cell(sideOf(r, 'theirs')),
          ...(floorName ? [cell(sideOf(r, 'floor'))] : []),
          times(r.ratio),
          ...(floorName ? [times(r.floorRatio)] : []),
          targetCell(r.target),
        ]),
      ),
    )
  }
  return `${parts.join('\n\n')}\n`
}
