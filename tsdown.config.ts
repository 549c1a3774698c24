import { defineConfig } from 'tsdown'

export default defineConfig([
  {
    entry: {
      'core/index': 'src/core/index.ts',
      'magic/index': 'src/magic/index.ts',
      'passport/index': 'src/passport/index.ts',
      'connectors/index': 'connectors/index.ts',
    },
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    dts: true,
    clean: false,
    sourcemap: true,
  },
  {
    entry: {
      'emulator/index': 'src/emulator/index.ts',
      'emulator/bin': 'src/emulator/bin.ts',
    },
    platform: 'node',
    // `.js`, not `.mjs`: the package is `"type": "module"` and its exports
    // map names `.js` files for every entry.
    fixedExtension: false,
    format: 'esm',
    dts: true,
    clean: false,
    sourcemap: true,
  },
])
