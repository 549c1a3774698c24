/**
 * The checks of `npm run test:examples` (scripts/test-examples.ts) that
 * keep the examples honest: each declares what a real dApp would, at the
 * package's own versions, and resolves `embedded-wallets` from the tarball
 * unpacked into its node_modules, never from the repository.
 */
import { readFileSync, realpathSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join, sep } from 'node:path'

/** What the checks read of a package.json. */
export type Manifest = {
  name: string
  version: string
  dependencies?: Record<string, string> | undefined
  devDependencies?: Record<string, string> | undefined
  peerDependencies?: Record<string, string> | undefined
}

/** Reads a package.json. */
export function readManifest(path: string): Manifest {
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest
}

/** The package's entries an example's sources and tests import. */
export async function importedEntries(dir: string): Promise<string[]> {
  const found = new Set(['embedded-wallets/package.json'])
  const files = await readdir(dir, { recursive: true })
  for (const file of files) {
    if (!/\.(ts|tsx)$/.test(file) || file.split(sep).includes('node_modules'))
      continue
    const text = readFileSync(join(dir, file), 'utf8')
    for (const [, entry] of text.matchAll(/from '(embedded-wallets[^']*)'/g))
      if (entry) found.add(entry)
  }
  return [...found].sort()
}

/**
 * An example declares what a real dApp would; each dependency the root also
 * has must be the root's version, since that is what it runs with here.
 */
export function checkVersions(
  manifest: Manifest,
  rootManifest: Manifest,
): void {
  const rootVersions = {
    ...rootManifest.peerDependencies,
    ...rootManifest.dependencies,
    ...rootManifest.devDependencies,
  }
  const declared = {
    ...manifest.dependencies,
    ...manifest.devDependencies,
  }
  if (declared['embedded-wallets'] !== `^${rootManifest.version}`)
    throw new Error(
      `${manifest.name}: embedded-wallets must be ^${rootManifest.version}, not ${declared['embedded-wallets']}.`,
    )
  for (const [name, version] of Object.entries(declared)) {
    if (name === 'embedded-wallets') continue
    const expected = rootVersions[name]
    if (expected === undefined)
      throw new Error(
        `${manifest.name}: ${name} is not a dependency of the package, so it is not installed here.`,
      )
    if (version !== expected)
      throw new Error(
        `${manifest.name}: ${name} is ${version}, the package has ${expected}.`,
      )
  }
}

/**
 * Checks that Node resolves every entry of `embedded-wallets` the example
 * in `dir` imports inside its own `node_modules/embedded-wallets`: a real
 * directory there, not a link or a path back to the repository.
 *
 * @throws {Error} Naming the entry and where it resolved.
 */
export async function checkResolution(dir: string): Promise<void> {
  const target = join(dir, 'node_modules', 'embedded-wallets')
  const require = createRequire(join(dir, 'package.json'))
  for (const entry of await importedEntries(dir)) {
    let resolved: string
    try {
      resolved = realpathSync(require.resolve(entry))
    } catch (error) {
      throw new Error(
        `${dir} cannot resolve ${entry} from the packed package: ${(error as Error).message}`,
      )
    }
    if (!resolved.startsWith(target + sep))
      throw new Error(
        `${dir} resolves ${entry} to ${resolved}, not to the packed package in ${target}.`,
      )
  }
}
