import { existsSync, readdirSync, readFileSync } from 'node:fs'
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
 * Whose wire the emulator may import: the two products, and the platform
 * API's clients (`src/api`), whose wire holds the generated OpenAPI types,
 * operation tables and enumerations the emulated platform answers with.
 */
const wired = [...products, 'api'] as const

/** The leaf of the constants several emulated services share. */
const leaf = 'src/emulator/constants.ts'
const leafJs = 'src/emulator/constants.js'

/** The names of the constants the leaf exports. */
function leafConstants(): string[] {
  const text = readFileSync(join(root, leaf), 'utf8')
  return [...text.matchAll(/export\s+const\s+(\w+)/g)].map(
    (match) => match[1] as string,
  )
}

/**
 * The folder of the service a module belongs to: the nearest folder above
 * it that holds a `service.ts` (`src/emulator/passport/relayer`), or the
 * product's folder for what a product's services share
 * (`src/emulator/passport` for its bearer check).
 */
function serviceFolderOf(file: string): string {
  let dir = dirname(file)
  while (dir.startsWith('src/emulator/')) {
    if (existsSync(join(root, dir, 'service.ts'))) return dir
    const parent = dirname(dir)
    if (parent === 'src/emulator') return dir
    dir = parent
  }
  return dir
}

/**
 * Whether an import target is a module of a service: anything under a
 * product's folder (its services and what they share) or a service's
 * folder (`dev/`), but not the state the emulator hands every service
 * (the mailbox store the dev service serves).
 */
function isServiceModule(target: string): boolean {
  if (target === 'src/emulator/dev/mailbox.js') return false
  return (
    products.some((product) => target.startsWith(`src/emulator/${product}/`)) ||
    target.startsWith('src/emulator/dev/')
  )
}

/** The value imports of `file` (`import { a, b as c } from '…'`), by target. */
function namedImportsOf(file: string) {
  const text = readFileSync(join(root, file), 'utf8')
  return [
    ...text.matchAll(/import\s+(?!type\b)\{([^}]*)\}\s*from\s*'(\.[^']+)'/g),
  ].map((match) => ({
    target: relative(root, resolve(root, dirname(file), match[2] as string)),
    names: (match[1] as string)
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '' && !part.startsWith('type '))
      .map((part) => part.split(/\s+as\s+/)[0] as string),
  }))
}

/** Whether the module at `target` (a `.js` import path) defines `name` as a constant. */
function definesConstant(target: string, name: string): boolean {
  const file = join(root, target.replace(/\.js$/, '.ts'))
  try {
    return new RegExp(`export\\s+const\\s+${name}\\b`).test(
      readFileSync(file, 'utf8'),
    )
  } catch {
    return false
  }
}

/**
 * What a product's wire may import: its own files, and viem's main entry
 * (the game wallet's codec hashes and ABI-encodes with it). Nothing else, so
 * client and emulator can share a wire without pulling in either side.
 */
const wireMayImport = (product: string) => (target: string) =>
  target.startsWith(`src/${product}/wire/`) || target === 'package:viem'

describe('layers', () => {
  test('the clients, core and the connectors never import the emulator or the test kit', () => {
    for (const dir of [
      'src/core',
      'src/api',
      'src/magic',
      'src/passport',
      'connectors',
    ])
      expect(
        violations(
          dir,
          (target) =>
            !target.startsWith('src/emulator') &&
            !target.startsWith('src/testing'),
        ),
      ).toEqual([])
  })

  test('the emulator never imports the test kit built on it', () => {
    expect(
      violations('src/emulator', (target) => !target.startsWith('src/testing')),
    ).toEqual([])
  })

  test('the test kit reaches the emulator, core and the wires, never a client', () => {
    // It is Node tooling over the emulator (embedded-wallets/testing), as
    // a dApp's tests would use it: none of a client's code comes with it.
    expect(
      violations(
        'src/testing',
        (target) =>
          target.startsWith('src/testing/') ||
          target.startsWith('src/emulator/') ||
          target.startsWith('src/core/') ||
          wired.some((product) => target.startsWith(`src/${product}/wire/`)) ||
          target.startsWith('package:'),
      ),
    ).toEqual([])
  })

  test('the emulator reaches into a product only through its wire', () => {
    expect(
      violations(
        'src/emulator',
        (target) =>
          !wired.some(
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

  test('a wire imports nothing outside itself but viem', () => {
    for (const product of wired)
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

  test('the API clients import nothing but core and themselves', () => {
    // Both products will send their platform calls through them: they may
    // not depend on either product, nor on any package (the public entry
    // appears in their TSDoc examples only).
    expect(
      violations(
        'src/api',
        (target) =>
          target.startsWith('src/api/') ||
          target.startsWith('src/core/') ||
          target === 'package:embedded-wallets/api',
      ),
    ).toEqual([])
  })

  test("behavior: the emulator's wire rule takes the API's wire and refuses the rest of src/api", () => {
    const offending = (target: string) =>
      wired.some(
        (product) =>
          target.startsWith(`src/${product}/`) &&
          !target.startsWith(`src/${product}/wire/`),
      )
    expect(offending('src/api/wire/mr/enums.generated.js')).toBe(false)
    expect(offending('src/api/wire/enumerations.js')).toBe(false)
    expect(offending('src/api/BaseAPI.js')).toBe(true)
    expect(offending('src/api/mr/nfts.generated.js')).toBe(true)
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

  test("the emulator's service contract imports no service", () => {
    // service.ts is what every service implements; it may name the state
    // handed to them (the registry, the mailbox, the guardian's verdicts)
    // but nothing of a product's services or any service's entry.
    const imports = importsOf('src/emulator/service.ts')
    expect(imports.length).toBeGreaterThan(0)
    expect(imports.filter(isServiceModule)).toEqual([])
  })

  test('the shared constants leaf imports nothing, and defines what no other module defines', () => {
    expect(importsOf(leaf)).toEqual([])
    const names = leafConstants()
    expect(names.length).toBeGreaterThan(0)
    const redefined = sources('src/emulator')
      .filter((file) => file !== leaf)
      .flatMap((file) => {
        const text = readFileSync(join(root, file), 'utf8')
        return names
          .filter((name) =>
            new RegExp(`export\\s+const\\s+${name}\\b`).test(text),
          )
          .map((name) => `${file} defines ${name}`)
      })
    expect(redefined).toEqual([])
  })

  test("a service takes a constant from the leaf, never from another service's modules", () => {
    const shared = new Set(leafConstants())
    const offending = sources('src/emulator')
      .filter((file) => !file.endsWith('/testkit.ts'))
      .flatMap((file) =>
        namedImportsOf(file)
          .filter(
            ({ target }) =>
              target !== leafJs &&
              isServiceModule(target) &&
              serviceFolderOf(target) !== serviceFolderOf(file),
          )
          .flatMap(({ target, names }) =>
            names
              .filter(
                (name) => shared.has(name) || definesConstant(target, name),
              )
              .map((name) => `${file} → ${name} from ${target}`),
          ),
      )
    expect(offending).toEqual([])
  })

  test("the game wallet's tests reach its backends only through the emulator's testkits", () => {
    // One test double per emulated service: the real service, started by
    // its testkit, with what it never answers scripted at its tap. A fake
    // beside it (a server of its own, a stubbed fetch) in a test or a test
    // helper is a second copy of the wire that a change must also reach.
    const files = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? files(join(dir, entry.name))
          : [join(dir, entry.name)],
      )
    const offending = files('src/passport').filter(
      (file) =>
        (file.endsWith('.test.ts') || file.includes('/_test/')) &&
        /\bcreateServer\(|stubGlobal\(\s*'fetch'|new Hono\(/.test(
          readFileSync(join(root, file), 'utf8'),
        ),
    )
    expect(offending).toEqual([])
  })

  test('behavior: the check sees imports (the emulator does use both wires)', () => {
    const targets = sources('src/emulator').flatMap(importsOf)
    expect(targets.some((t) => t.startsWith('src/magic/wire/'))).toBe(true)
    expect(targets.some((t) => t.startsWith('src/passport/wire/'))).toBe(true)
  })
})
