import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { test as base, expect } from 'embedded-wallets/testing/playwright'
import { preview } from 'vite'

export { expect }

/**
 * The kit's fixtures plus the dApp: the build of the global setup served by
 * `vite preview` on a free port of the loopback, one server per worker,
 * with that worker's emulator line at `/emulator.json` (where the dApp reads
 * it, see src/emulator.ts). The pages under test open the server's origin.
 */
export const test = base.extend<object, { dappUrl: string }>({
  dappUrl: [
    async ({ emulator }, use) => {
      const server = await preview({
        root: fileURLToPath(new URL('..', import.meta.url)),
        logLevel: 'warn',
        preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
        plugins: [
          {
            name: 'emulator-line',
            configurePreviewServer(server) {
              server.middlewares.use('/emulator.json', (_request, response) => {
                response.setHeader('content-type', 'application/json')
                response.setHeader('cache-control', 'no-store')
                response.end(JSON.stringify(emulator))
              })
            },
          },
        ],
      })
      const { port } = server.httpServer.address() as AddressInfo
      await use(`http://127.0.0.1:${port}`)
      await server.close()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ dappUrl }, use) => use(dappUrl),
})
