/**
 * Size rows: what each wallet adds to a dApp's bundle, gzipped, with the
 * page and in total, ours beside the published SDK, bundled by rolldown and
 * by esbuild (scripts/size.ts measures; its products are reused here).
 */
import {
  type Measurement,
  magic,
  measure,
  measureEsbuild,
  type Product,
  passport,
} from '../scripts/size.js'
import { type Row, row, type Side } from './report.js'

const passportConfig = [
  '{',
  `  baseConfig: { environment: 'sandbox' },`,
  `  clientId: 'SIZE_CHECK',`,
  `  redirectUri: 'https://game.example/callback',`,
  '}',
].join('\n')

/**
 * A product of the bench: scripts/size.ts's, or one it does not budget;
 * `theirsEntry` when the published side is written differently (it has no
 * wagmi connector: the dApp uses the SDK itself).
 */
type BenchProduct = Omit<Product, 'budget' | 'totalBudget'> & {
  id: string
  theirsEntry?: ((specifier: string) => string) | undefined
  /** Packages the dApp loads anyway, left out of both bundles. */
  external?: readonly string[] | undefined
  /** The target on what loads with the page, in bytes. */
  pageTarget?: number | undefined
}

/** Every size row's product, in table order. */
export const products: readonly BenchProduct[] = [
  { ...magic, id: 'magic', pageTarget: 12 * 1024 },
  {
    id: 'passport-sign-in',
    // The same as the next row while `Passport` is one class (a bundler
    // keeps every method of an instance it cannot see through); kept apart
    // so that a split of sign-in from the wallet shows.
    title: '`Passport` sign-in',
    ours: passport.ours,
    theirs: passport.theirs,
    entry: (specifier) =>
      [
        `import { Passport } from '${specifier}'`,
        `const passport = new Passport(${passportConfig})`,
        'globalThis.signIn = () => passport.login()',
        '',
      ].join('\n'),
  },
  {
    id: 'passport-connect-evm',
    title: '`Passport` + `connectEvm`',
    ours: passport.ours,
    theirs: passport.theirs,
    entry: (specifier) =>
      [
        `import { Passport } from '${specifier}'`,
        `const passport = new Passport(${passportConfig})`,
        'globalThis.connect = async () => {',
        '  await passport.login()',
        '  return passport.connectEvm()',
        '}',
        '',
      ].join('\n'),
    pageTarget: passport.budget,
  },
  {
    id: 'connector-magic',
    title:
      'wagmi connector `magic` (published: magic-sdk itself; @wagmi/core and viem left out of both)',
    ours: 'embedded-wallets/connectors',
    theirs: magic.theirs,
    entry: (specifier) =>
      [
        `import { magic } from '${specifier}'`,
        `globalThis.connector = magic({ apiKey: 'pk_live_SIZE_CHECK' })`,
        '',
      ].join('\n'),
    theirsEntry: magic.entry,
    external: ['@wagmi/core', 'viem'],
  },
  {
    id: 'connector-passport',
    title:
      'wagmi connector `passport` (published: @imtbl/passport itself; @wagmi/core and viem left out of both)',
    ours: 'embedded-wallets/connectors',
    theirs: passport.theirs,
    entry: (specifier) =>
      [
        `import { passport } from '${specifier}'`,
        `globalThis.connector = passport({ config: ${passportConfig} })`,
        '',
      ].join('\n'),
    theirsEntry: passport.entry,
    external: ['@wagmi/core', 'viem'],
  },
]

const bundlers = [
  { name: 'rolldown', measure },
  { name: 'esbuild', measure: measureEsbuild },
] as const

function side(
  name: string,
  role: Side['role'],
  measurement: Measurement,
): Side {
  return {
    name,
    role,
    value: measurement.initialGzipped,
    detail: {
      total: measurement.gzipped,
      minified: measurement.initialMinified,
      totalMinified: measurement.minified,
      chunks: measurement.chunks,
    },
  }
}

/**
 * Measures every product (or those `only` names) with both bundlers.
 * `versions` names ours and the published packages.
 */
export async function sizeRows(options: {
  versions: Record<string, string>
  only?: readonly string[] | undefined
}): Promise<Row[]> {
  const { versions, only } = options
  const rows: Row[] = []
  for (const product of products) {
    if (only && !only.includes(product.id)) continue
    for (const bundler of bundlers) {
      const ours = await bundler.measure(
        product.ours,
        product.ours,
        product.entry,
        product.external,
      )
      const theirsName = `${product.theirs} ${versions[product.theirs]}`
      const theirs = await bundler.measure(
        theirsName,
        product.theirs,
        product.theirsEntry ?? product.entry,
        product.external,
      )
      const { pageTarget } = product
      rows.push(
        row(
          {
            group: 'size',
            id: `size.${product.id}.${bundler.name}`,
            title: product.title,
            variant: bundler.name,
            unit: 'bytes',
            sides: [
              side(`${product.ours} ${versions.ours}`, 'ours', ours),
              side(theirsName, 'theirs', theirs),
            ],
          },
          pageTarget === undefined
            ? undefined
            : (ours) => ({
                text: `with the page ≤ ${pageTarget / 1024} KiB`,
                pass: ours.value <= pageTarget,
              }),
        ),
      )
    }
  }
  return rows
}
