import { defineConfig } from 'tsdown'

export default defineConfig([
  {
    entry: {
      'core/index': 'src/core/index.ts',
      'magic/index': 'src/magic/index.ts',
      'passport/index': 'src/passport/index.ts',
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
  },
  {
    entry: { 'connectors/index': 'connectors/index.ts' },
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    dts: true,
    clean: false,
    sourcemap: true,
    plugins: [
      {
        // The connectors lazy-import the clients: import the built entries
        // rather than bundling a second copy of them.
        name: 'external-client-entries',
        resolveId: (source: string) =>
          source === '../src/magic/index.js'
            ? { id: '../magic/index.js', external: true }
            : source === '../src/passport/index.js'
              ? { id: '../passport/index.js', external: true }
              : null,
      },
    ],
  },
  {
    entry: {
      'emulator/index': 'src/emulator/index.ts',
      'emulator/bin': 'src/emulator/bin.ts',
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
])
