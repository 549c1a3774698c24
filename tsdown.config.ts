import { defineConfig } from 'tsdown'

export default defineConfig([
  {
    entry: {
      'core/index': 'src/core/index.ts',
      'api/index': 'src/api/index.ts',
      // The API's namespaces, built as modules of their own (see the
      // plugin below).
      'api/mr/index': 'src/api/mr/index.ts',
      'api/imx/index': 'src/api/imx/index.ts',
      'magic/index': 'src/magic/index.ts',
      'passport/index': 'src/passport/index.ts',
      // Leaves the connectors import (not public entries): as entries they
      // keep every export, where the build would drop those the products
      // do not use themselves.
      'magic/providerInfo': 'src/magic/providerInfo.ts',
      'magic/sessionMarker': 'src/magic/sessionMarker.ts',
      'magic/wire/codes': 'src/magic/wire/codes.ts',
      'passport/auth/sessionMarker': 'src/passport/auth/sessionMarker.ts',
      'passport/zkevm/providerInfo': 'src/passport/zkevm/providerInfo.ts',
    },
    // One dist file per source module (dist/magic/Magic.js, …), so that a
    // dApp's bundler applies `"sideEffects": false` per module and drops
    // what the app does not use; one merged file per entry would keep every
    // module's top-level classes.
    unbundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    dts: true,
    clean: false,
    sourcemap: true,
    plugins: [
      {
        // The API entry's `export * as mr from './mr/index.js'` (and imx)
        // stay ES re-exports of those modules: built into the entry, each
        // namespace would become one object holding every class, which a
        // dApp's bundler cannot tree-shake, so a call of one operation
        // would pull in every tag.
        name: 'api-namespaces',
        resolveId: (source: string, importer: string | undefined) =>
          importer?.endsWith('/src/api/index.ts') &&
          /^\.\/(mr|imx)\/index\.js$/.test(source)
            ? { id: source, external: true }
            : null,
      },
    ],
  },
  {
    entry: { 'connectors/index': 'connectors/index.ts' },
    copy: [{ from: 'connectors/wagmi.d.ts', to: 'dist/connectors' }],
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    dts: true,
    clean: false,
    sourcemap: true,
    plugins: [
      {
        // The connectors lazy-import the clients and read the products'
        // names, icons and session markers: import the built modules
        // (one dist file per source module) rather than bundling a second
        // copy of them.
        name: 'external-product-modules',
        resolveId: (source: string) => {
          const product = /^\.\.\/src\/((?:magic|passport)\/.+)$/.exec(source)
          if (product) return { id: `../${product[1]}`, external: true }
          // wagmi's types, shipped as written (see connectors/wagmi.d.ts).
          if (source === './wagmi.js') return { id: source, external: true }
          return null
        },
      },
    ],
  },
  {
    entry: {
      'emulator/index': 'src/emulator/index.ts',
      'emulator/bin': 'src/emulator/bin.ts',
      // The test kit: Node tooling over the emulator, like it.
      'testing/index': 'src/testing/index.ts',
      // Its Vitest helpers, an entry of their own: vitest stays an
      // optional peer of the package.
      'testing/vitest': 'src/testing/vitest.ts',
      // Its Playwright fixtures (`@playwright/test` is an optional peer).
      'testing/playwright': 'src/testing/playwright.ts',
    },
    platform: 'node',
    // rolldown is imported only to bundle the iframe app when running from
    // source (src/emulator/assets.ts); keep it out of the build.
    deps: { neverBundle: ['rolldown'] },
    // `.js`, not `.mjs`: the package is `"type": "module"` and its exports
    // map names `.js` files for every entry.
    fixedExtension: false,
    format: 'esm',
    dts: true,
    clean: false,
    sourcemap: true,
  },
  {
    // The emulated iframe wallet's `/send` app, served by the emulator
    // (see src/emulator/assets.ts).
    entry: { 'emulator/app/magic': 'src/emulator/magic/provider/app/main.ts' },
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    fixedExtension: false,
    minify: true,
    dts: false,
    clean: false,
    sourcemap: false,
  },
  {
    // The emulator's UI on the dev origin (React, bundled in: the package
    // has no runtime dependency on it; see src/emulator/dev/ui.ts).
    entry: { 'emulator/app/ui': 'src/emulator/dev/ui/main.tsx' },
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    fixedExtension: false,
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    dts: false,
    clean: false,
    sourcemap: false,
  },
])
