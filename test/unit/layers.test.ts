import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

/**
 * The repository's layers, checked on every import of every source file:
 * the clients never reach into the emulator, the emulator reaches into a
 * product only through its wire, a wire imports nothing outside itself, and
 * core imports no product.
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

  test("no product's emulated services import another product's", () => {
    // What both need (the custody app's key, the game wallet's OIDC
    // provider) lives in a leaf outside both product folders.
    for (const product of products)
      expect(
        violations(
          `src/emulator/${product}`,
          (target) =>
            !products.some(
              (other) =>
                other !== product &&
                target.startsWith(`src/emulator/${other}/`),
            ),
        ),
      ).toEqual([])
  })

  test('a wire imports nothing outside itself, not even a package', () => {
    for (const product of products)
      expect(
        violations(`src/${product}/wire`, (target) =>
          target.startsWith(`src/${product}/wire/`),
        ),
      ).toEqual([])
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
