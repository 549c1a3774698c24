import { fileURLToPath } from 'node:url'
import { build } from 'vite'

/** Builds the dApp once for the run: the workers serve `dist/`. */
export default async function globalSetup(): Promise<void> {
  await build({
    root: fileURLToPath(new URL('..', import.meta.url)),
    logLevel: 'warn',
  })
}
