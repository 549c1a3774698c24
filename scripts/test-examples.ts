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
 * one directory up the tree: the versions are the root's (checked, scripts/examples.ts),
 * nothing is downloaded, and the step takes seconds. An `npm install` of the
 * tarball would fetch or link the same packages again for no gain.
 *
 * Needs `npm run build` first. `-- <example>` runs one example only;
 * `-- --install` only packs and installs (to open an example by hand);
 * other arguments go to `playwright test`.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkResolution, checkVersions, readManifest } from './examples.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const examplesDir = join(root, 'examples')

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
 * Unpacks the tarball as the example's `node_modules/embedded-wallets`
 * (what `npm install <tarball>` would put there), then checks that the
 * example resolves the package there.
 */
async function install(example: string, tarball: string): Promise<void> {
  const dir = join(examplesDir, example)
  const target = join(dir, 'node_modules', 'embedded-wallets')
  await rm(target, { recursive: true, force: true })
  await mkdir(target, { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'])
  await checkResolution(dir)
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const only = args[0] && !args[0].startsWith('-') ? args.shift() : undefined
  const installOnly = args.includes('--install')
  const rootManifest = readManifest(join(root, 'package.json'))
  if (!existsSync(join(root, 'dist')))
    throw new Error('No dist/: run `npm run build` first.')

  const examples = await listExamples(only)
  for (const example of examples)
    checkVersions(
      readManifest(join(examplesDir, example, 'package.json')),
      rootManifest,
    )

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
