import { mkdtempSync, realpathSync, symlinkSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'
import {
  checkResolution,
  checkVersions,
  importedEntries,
  type Manifest,
  readManifest,
} from '../../scripts/examples.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const rootManifest = readManifest(join(root, 'package.json'))
const examples = ['connectors-dapp', 'published-sdks-dapp'] as const

describe('npm run test:examples: what the examples declare', () => {
  test.each(examples)(
    'behavior: examples/%s declares the package and the root versions of everything else',
    (example) => {
      const manifest = readManifest(
        join(root, 'examples', example, 'package.json'),
      )
      expect(() => checkVersions(manifest, rootManifest)).not.toThrow()
    },
  )

  const dapp = (deps: Record<string, string>): Manifest => ({
    name: 'some-dapp',
    version: '0.0.0',
    dependencies: { 'embedded-wallets': `^${rootManifest.version}`, ...deps },
  })

  test('error: a version other than the root one', () => {
    expect(() => checkVersions(dapp({ viem: '^2.0.0' }), rootManifest)).toThrow(
      `some-dapp: viem is ^2.0.0, the package has ${rootManifest.devDependencies?.viem ?? rootManifest.dependencies?.viem}.`,
    )
  })

  test('error: a dependency the repository does not install', () => {
    expect(() =>
      checkVersions(dapp({ 'left-pad': '1.3.0' }), rootManifest),
    ).toThrow(
      'some-dapp: left-pad is not a dependency of the package, so it is not installed here.',
    )
  })

  test('error: embedded-wallets missing or at another version', () => {
    expect(() =>
      checkVersions(
        { name: 'some-dapp', version: '0.0.0', dependencies: {} },
        rootManifest,
      ),
    ).toThrow(
      `some-dapp: embedded-wallets must be ^${rootManifest.version}, not undefined.`,
    )
  })

  test('behavior: the entries an example imports, from its sources and its suite', async () => {
    expect(
      await importedEntries(join(root, 'examples', 'connectors-dapp')),
    ).toEqual(
      expect.arrayContaining([
        'embedded-wallets/connectors',
        'embedded-wallets/package.json',
        'embedded-wallets/passport',
        'embedded-wallets/testing/playwright',
      ]),
    )
  })
})

describe('npm run test:examples: where an example resolves the package', () => {
  let scratch: string | undefined
  afterEach(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true })
  })

  /** A package named embedded-wallets with one entry, `./connectors`, in `dir`. */
  async function writePackage(dir: string, exports: Record<string, string>) {
    await mkdir(dir, { recursive: true })
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'embedded-wallets', type: 'module', exports }),
    )
    await writeFile(join(dir, 'connectors.js'), 'export {}\n')
  }

  /** An example in a fresh directory that imports `embedded-wallets/connectors`. */
  async function writeExample() {
    // Real path: the check compares real paths (tmpdir may be a link).
    scratch = realpathSync(mkdtempSync(join(tmpdir(), 'examples-test-')))
    const dir = join(scratch, 'dapp')
    await mkdir(join(dir, 'src'), { recursive: true })
    await writeFile(join(dir, 'package.json'), '{"name":"dapp"}')
    await writeFile(
      join(dir, 'src', 'main.ts'),
      "import { magic } from 'embedded-wallets/connectors'\n",
    )
    return dir
  }

  const exports = {
    './connectors': './connectors.js',
    './package.json': './package.json',
  }

  test('behavior: the package unpacked into the example passes', async () => {
    const dir = await writeExample()
    await writePackage(join(dir, 'node_modules', 'embedded-wallets'), exports)
    await expect(checkResolution(dir)).resolves.toBeUndefined()
  })

  test('error: the package linked from elsewhere (the repository) fails', async () => {
    const dir = await writeExample()
    const elsewhere = join(scratch ?? '', 'repository')
    await writePackage(elsewhere, exports)
    await mkdir(join(dir, 'node_modules'))
    symlinkSync(elsewhere, join(dir, 'node_modules', 'embedded-wallets'))
    await expect(checkResolution(dir)).rejects.toThrow(
      `${dir} resolves embedded-wallets/connectors to ${join(elsewhere, 'connectors.js')}, not to the packed package in ${join(dir, 'node_modules', 'embedded-wallets')}.`,
    )
  })

  test('error: an entry the packed package does not export fails', async () => {
    const dir = await writeExample()
    await writePackage(join(dir, 'node_modules', 'embedded-wallets'), {
      './package.json': './package.json',
    })
    await expect(checkResolution(dir)).rejects.toThrow(
      `${dir} cannot resolve embedded-wallets/connectors from the packed package:`,
    )
  })
})
