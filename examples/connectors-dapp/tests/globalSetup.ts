import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'vite'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Where the package must come from: the tarball unpacked by `npm run test:examples`. */
const installed = `${root}node_modules${sep}embedded-wallets${sep}`

/**
 * Fails the build when the dApp's bundle takes `embedded-wallets` from
 * anywhere but its own node_modules (a link, an alias, the repository's
 * sources), so the suite always tests what would be published.
 */
const fromTarball: Plugin = {
  name: 'embedded-wallets-from-tarball',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (
      source !== 'embedded-wallets' &&
      !source.startsWith('embedded-wallets/')
    )
      return null
    const resolved = await this.resolve(source, importer, {
      ...options,
      skipSelf: true,
    })
    const path = resolved ? realpathSync(resolved.id.split('?')[0] ?? '') : ''
    if (!path.startsWith(installed))
      this.error(
        `${source} resolved to ${path || 'nothing'}, not to the packed package in ${installed}: run npm run test:examples.`,
      )
    return resolved
  },
}

/**
 * Builds the dApp once for the run (the workers serve `dist/`), after
 * checking that the suite's own fixtures come from the packed package too.
 */
export default async function globalSetup(): Promise<void> {
  const fixtures = realpathSync(
    createRequire(`${root}package.json`).resolve(
      'embedded-wallets/testing/playwright',
    ),
  )
  if (!fixtures.startsWith(installed))
    throw new Error(
      `embedded-wallets/testing/playwright resolved to ${fixtures}, not to the packed package in ${installed}: run npm run test:examples.`,
    )
  await build({ root, logLevel: 'warn', plugins: [fromTarball] })
}
