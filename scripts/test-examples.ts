/**
 * `npm run test:examples`: the examples' Playwright suites against the
 * package as it would be published. It packs the built package (`npm
 * pack`, so `files` and `exports` decide what ships), unpacks the tarball
 * into each example's `node_modules/embedded-wallets`, checks that the
 * example resolves the package there and nowhere else, typechecks the
 * example against the tarball's declarations, and runs its suite.
 *
 * Everything else an example imports (react, wagmi, viem, the published
 * SDKs, Playwright, Vite) resolves from the repository's own node_modules,
 * one directory up the tree: the versions are the root's (checked below),
 * nothing is downloaded, and the step takes seconds. An `npm install` of the
 * tarball would fetch or link the same packages again for no gain.
 *
 * Needs `npm run build` first. `-- <example>` runs one example only;
 * `-- --install` only packs and installs (to open an example by hand);
 * other arguments go to `playwright test`.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const examplesDir = join(root, 'examples')

/** The package's entries an example's sources and tests import. */
async function importedEntries(dir: string): Promise<string[]> {
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

type Manifest = {
  name: string
  version: string
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

function readManifest(path: string): Manifest {
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest
}

/** Runs a command, its output shown; throws when it fails. */
function run(command: string, args: readonly string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' })
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} (in ${relative(root, cwd) || '.'}) failed with ${result.signal ?? `exit code ${result.status}`}.`,
    )
}

/** The examples to run: every directory of examples/ with a package.json. */
async function listExamples(only: string | undefined): Promise<string[]> {
  const names = (await readdir(examplesDir, { withFileTypes: true }))
    .filter(
      (entry) =>
        entry.isDirectory() &&
        existsSync(join(examplesDir, entry.name, 'package.json')),
    )
    .map((entry) => entry.name)
    .sort()
  if (only === undefined) return names
  if (!names.includes(only))
    throw new Error(`No example ${only}; there are: ${names.join(', ')}.`)
  return [only]
}

/**
 * An example declares what a real dApp would; each dependency the root also
 * has must be the root's version, since that is what it runs with here.
 */
function checkVersions(example: string, rootManifest: Manifest): void {
  const manifest = readManifest(join(examplesDir, example, 'package.json'))
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
      `examples/${example}/package.json: embedded-wallets must be ^${rootManifest.version}, not ${declared['embedded-wallets']}.`,
    )
  for (const [name, version] of Object.entries(declared)) {
    if (name === 'embedded-wallets') continue
    const expected = rootVersions[name]
    if (expected === undefined)
      throw new Error(
        `examples/${example}/package.json: ${name} is not a dependency of the package, so it is not installed here.`,
      )
    if (version !== expected)
      throw new Error(
        `examples/${example}/package.json: ${name} is ${version}, the package has ${expected}.`,
      )
  }
}

/**
 * Unpacks the tarball as the example's `node_modules/embedded-wallets`
 * (what `npm install <tarball>` would put there) and checks that Node
 * resolves every entry the example uses inside it: a real directory of the
 * example, not a link back to the repository.
 */
async function install(example: string, tarball: string): Promise<void> {
  const dir = join(examplesDir, example)
  const target = join(dir, 'node_modules', 'embedded-wallets')
  await rm(target, { recursive: true, force: true })
  await mkdir(target, { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'])
  const require = createRequire(join(dir, 'package.json'))
  for (const entry of await importedEntries(dir)) {
    let resolved: string
    try {
      resolved = realpathSync(require.resolve(entry))
    } catch (error) {
      throw new Error(
        `examples/${example} cannot resolve ${entry} from the packed package: ${(error as Error).message}`,
      )
    }
    if (!resolved.startsWith(target + sep))
      throw new Error(
        `examples/${example} resolves ${entry} to ${resolved}, not to the packed package in ${target}.`,
      )
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const only = args[0] && !args[0].startsWith('-') ? args.shift() : undefined
  const installOnly = args.includes('--install')
  const rootManifest = readManifest(join(root, 'package.json'))
  if (!existsSync(join(root, 'dist')))
    throw new Error('No dist/: run `npm run build` first.')

  const examples = await listExamples(only)
  for (const example of examples) checkVersions(example, rootManifest)

  const packDir = mkdtempSync(join(tmpdir(), 'embedded-wallets-pack-'))
  try {
    const packed = JSON.parse(
      execFileSync(
        'npm',
        ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir],
        { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      ),
    ) as { filename: string }[]
    const tarball = join(packDir, packed[0]?.filename ?? '')
    console.log(`Packed ${tarball}`)

    for (const example of examples) {
      const dir = join(examplesDir, example)
      await install(example, tarball)
      if (installOnly) {
        console.log(`examples/${example}: installed`)
        continue
      }
      console.log(`\nexamples/${example}: typecheck`)
      run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], dir)
      console.log(`examples/${example}: Playwright suite`)
      run(join(root, 'node_modules/.bin/playwright'), ['test', ...args], dir)
    }
  } finally {
    await rm(packDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
