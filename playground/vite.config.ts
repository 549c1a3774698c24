import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** The package's root (the playground sits in it). */
const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * The playground's Vite config. `npm start` (scripts/start.ts) serves it with
 * the emulator's JSON line in the `VITE_EMULATOR_INFO` environment variable.
 *
 * The playground imports the package by its public entry names, as a dApp
 * does; here they resolve to the TypeScript sources, so that the page runs
 * what is being edited, without a build (playground/tsconfig.json maps the
 * same names for the type checker). `embedded-wallets/emulator` is left out
 * on purpose: it is Node only, and the playground imports only its types.
 */
export default defineConfig({
  plugins: [react()],
  // Every package the page and the sources it aliases import, pre-bundled
  // when the server starts: on a cold cache (a fresh clone) Vite would
  // otherwise find one on a lazily loaded page and reload the page under
  // the user (or a running test).
  optimizeDeps: {
    include: [
      '@tanstack/react-query',
      '@wagmi/core',
      'jose',
      'mipd',
      'oauth4webapi',
      'react',
      'react-dom/client',
      'react/jsx-dev-runtime',
      'viem',
      'viem/accounts',
      'wagmi',
    ],
  },
  resolve: {
    alias: [
      {
        find: /^embedded-wallets\/(core|magic|passport|api)$/,
        replacement: `${root}src/$1/index.ts`,
      },
      {
        find: /^embedded-wallets\/connectors$/,
        replacement: `${root}connectors/index.ts`,
      },
    ],
  },
})
