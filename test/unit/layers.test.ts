import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

/**
 * The repository's layers, checked on every import of every source file:
 * the clients never reach into the emulator, the emulator reaches into a
 * product only through its wire, a wire imports nothing outside itself but
 * viem, and core imports no product.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** Every non-test TypeScript file under `dir`, relative to the root. */
function sources(dir: string): string[] {
  const files: string[] = []
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) files.push(...sources(path))
    else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name))
      files.push(path)
  }
  return files
}

/**
 * The imports of `file`: relative ones as paths from the root, packages
 * (`viem`, `node:fs`) as `package:<name>`.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  const specifiers = [
    ...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'([^']+)'/g),
  ].map((match) => match[1] as string)
  return specifiers.map((specifier) =>
    specifier.startsWith('.')
      ? relative(root, resolve(root, dirname(file), specifier))
      : `package:${specifier}`,
  )
}

/** The imports of the files under `dir` that `allowed` refuses. */
function violations(dir: string, allowed: (target: string) => boolean) {
  return sources(dir).flatMap((file) =>
    importsOf(file)
      .filter((target) => !allowed(target))
      .map((target) => `${file} → ${target}`),
  )
}

const products = ['magic', 'passport'] as const

/**
 * What a product's wire may import: its own files, and viem's main entry
 * (the game wallet's codec hashes and ABI-encodes with it). Nothing else, so
 * client and emulator can share a wire without pulling in either side.
 */
const wireMayImport = (product: string) => (target: string) =>
  target.startsWith(`src/${product}/wire/`) || target === 'package:viem'

describe('layers', () => {
  test('the clients, core and the connectors never import the emulator', () => {
    for (const dir of ['src/core', 'src/magic', 'src/passport', 'connectors'])
      expect(
        violations(dir, (target) => !target.startsWith('src/emulator')),
      ).toEqual([])
  })

  test('the emulator reaches into a product only through its wire', () => {
    expect(
      violations(
        'src/emulator',
        (target) =>
          !products.some(
            (product) =>
              target.startsWith(`src/${product}/`) &&
              !target.startsWith(`src/${product}/wire/`),
          ),
      ),
    ).toEqual([])
  })

  test('a wire imports nothing outside itself but viem', () => {
    for (const product of products)
      expect(violations(`src/${product}/wire`, wireMayImport(product))).toEqual(
        [],
      )
  })

  test('behavior: the wire rule refuses any other package, viem subpaths and the rest of the repository', () => {
    const allowed = wireMayImport('passport')
    expect(allowed('package:viem')).toBe(true)
    expect(allowed('src/passport/wire/relayer.js')).toBe(true)
    for (const target of [
      'package:viem/accounts',
      'package:hono',
      'package:node:crypto',
      'src/core/Errors.js',
      'src/passport/zkevm/context.js',
      'src/magic/wire/protocol.js',
      'src/emulator/chain/deploy.js',
    ])
      expect(allowed(target)).toBe(false)
  })

  test('the game wallet reaches the iframe wallet only through its public entry, lazily', () => {
    // The zkEVM provider's custody key is the iframe wallet's, reached
    // through that client's public index (never its internals), and loaded
    // with a dynamic import() on first signer use so that sign-in alone
    // does not load it; type-only imports are erased.
    const offending = sources('src/passport').flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8')
      return [
        ...text.matchAll(
          /(import\s+type\s[^;]*?from|from|import\s*\()\s*'([^']+)'/g,
        ),
      ]
        .filter((match) => {
          const target = relative(
            root,
            resolve(root, dirname(file), match[2] as string),
          )
          if (!target.startsWith('src/magic')) return false
          const lazyOrType = match[1]!.startsWith('import')
          return target !== 'src/magic/index.js' || !lazyOrType
        })
        .map((match) => `${file} → ${match[2]}`)
    })
    expect(offending).toEqual([])
  })

  test('core imports no product', () => {
    expect(
      violations(
        'src/core',
        (target) =>
          target.startsWith('src/core/') || target.startsWith('package:'),
      ),
    ).toEqual([])
  })

  test('behavior: the check sees imports (the emulator does use both wires)', () => {
    const targets = sources('src/emulator').flatMap(importsOf)
    expect(targets.some((t) => t.startsWith('src/magic/wire/'))).toBe(true)
    expect(targets.some((t) => t.startsWith('src/passport/wire/'))).toBe(true)
  })
})
