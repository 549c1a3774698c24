/**
 * The emulator's browser apps (the pages its services serve, e.g. the
 * iframe wallet's `/send` app), as JavaScript bundles.
 *
 * @packageDocumentation
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/**
 * The emulator's browser apps, by name, with the source entry of each
 * (relative to this module). The name is also the prebuilt bundle's file
 * name under `app/`.
 */
const entries = {
  /** The iframe wallet provider's `/send` app. */
  magic: './magic/provider/app/main.ts',
  /** The emulator's UI on the dev origin (React). */
  ui: './dev/ui/main.tsx',
} as const

/** A browser app of the emulator. */
export type BrowserApp = keyof typeof entries

/** Where an app's bundle comes from. */
export type BrowserAppSource =
  /** A bundle built ahead of time (the published package). */
  | { kind: 'prebuilt'; path: string }
  /** The TypeScript entry, bundled on demand (running from source). */
  | { kind: 'source'; entry: string }

const cache = new Map<BrowserApp, Promise<string>>()

/**
 * Returns the JavaScript bundle of a browser app: the prebuilt file beside
 * the built module (`dist/emulator/app/<name>.js`, emitted by tsdown) if it
 * exists, else the app's TypeScript entry bundled in memory with rolldown
 * (when running from source). Built once per process, then cached.
 *
 * @example
 * ```ts
 * const code = await loadBrowserApp('magic')
 * ```
 *
 * @param name - The app.
 * @returns The bundle's code (an ES module).
 * @throws If the prebuilt file cannot be read or the source cannot be built.
 */
export function loadBrowserApp(name: BrowserApp): Promise<string> {
  let loading = cache.get(name)
  if (!loading) {
    loading = load(resolveBrowserApp(name))
    cache.set(name, loading)
    // A failed build is not cached, so a fixed source builds next time.
    loading.catch(() => cache.delete(name))
  }
  return loading
}

/**
 * Chooses where an app's bundle comes from: the first prebuilt candidate
 * that exists beside `moduleUrl` (`./app/<name>.js` from the emulator's
 * module, `./emulator/app/<name>.js` from a shared chunk at the output
 * root), else the app's source entry.
 *
 * @param name - The app.
 * @param options.moduleUrl - The calling module's URL. @default import.meta.url
 * @param options.exists - Tells whether a file exists. @default existsSync
 */
export function resolveBrowserApp(
  name: BrowserApp,
  options: resolveBrowserApp.Options = {},
): BrowserAppSource {
  const { moduleUrl = import.meta.url, exists = existsSync } = options
  for (const candidate of [`./app/${name}.js`, `./emulator/app/${name}.js`]) {
    const path = fileURLToPath(new URL(candidate, moduleUrl))
    if (exists(path)) return { kind: 'prebuilt', path }
  }
  const entry = fileURLToPath(new URL(entries[name], moduleUrl))
  return { kind: 'source', entry }
}

export declare namespace resolveBrowserApp {
  type Options = {
    /** The calling module's URL. @default import.meta.url */
    moduleUrl?: string | undefined
    /** Tells whether a file exists. @default existsSync */
    exists?: ((path: string) => boolean) | undefined
  }
}

async function load(source: BrowserAppSource): Promise<string> {
  if (source.kind === 'prebuilt') return readFile(source.path, 'utf8')
  return bundle(source.entry)
}

/** Bundles a browser entry in memory (one ES module, no source map). */
export async function bundle(entry: string): Promise<string> {
  const { rolldown } = await import('rolldown')
  const build = await rolldown({
    input: entry,
    platform: 'browser',
    resolve: { extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } },
    // React reads it to choose its build.
    transform: {
      jsx: 'react-jsx',
      define: { 'process.env.NODE_ENV': '"production"' },
    },
    logLevel: 'silent',
  })
  try {
    const { output } = await build.generate({ format: 'esm' })
    const [chunk] = output
    if (chunk?.type !== 'chunk')
      throw new Error(`Bundling ${entry} produced no chunk.`)
    return chunk.code
  } finally {
    await build.close()
  }
}
