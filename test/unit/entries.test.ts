import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

/**
 * Every public entry must import in plain Node without touching browser
 * globals (SSR-safe). Each global is replaced by a getter that records the
 * stack of whoever reads it; reads from dependencies are allowed (a guarded
 * `typeof window` in a library is fine), reads from our own source are not.
 */
const browserGlobals = [
  'window',
  'document',
  'localStorage',
  'sessionStorage',
  'indexedDB',
] as const

const root = fileURLToPath(new URL('../../', import.meta.url))
const reads: { name: string; stack: string }[] = []
const saved = new Map<string, PropertyDescriptor | undefined>()

beforeAll(() => {
  for (const name of browserGlobals) {
    saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name))
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        reads.push({ name, stack: new Error().stack ?? '' })
        return undefined
      },
    })
  }
})

afterAll(() => {
  for (const name of browserGlobals) {
    const descriptor = saved.get(name)
    if (descriptor) Object.defineProperty(globalThis, name, descriptor)
    else Reflect.deleteProperty(globalThis, name)
  }
})

/** Stack frames that belong to this repository's own code. */
function ownFrames(stack: string) {
  return stack
    .split('\n')
    .slice(1)
    .filter((line) => line.includes(root) && !line.includes('node_modules'))
    .filter((line) => !line.includes('test/unit/entries.test.ts'))
}

const entries = {
  core: () => import('../../src/core/index.js'),
  api: () => import('../../src/api/index.js'),
  'api/mr': () => import('../../src/api/mr/index.js'),
  'api/imx': () => import('../../src/api/imx/index.js'),
  magic: () => import('../../src/magic/index.js'),
  passport: () => import('../../src/passport/index.js'),
  connectors: () => import('../../connectors/index.js'),
  emulator: () => import('../../src/emulator/index.js'),
  testing: () => import('../../src/testing/index.js'),
  'testing/vitest': () => import('../../src/testing/vitest.js'),
}

describe('package entries', () => {
  test.each(Object.keys(entries) as (keyof typeof entries)[])(
    'embedded-wallets/%s imports in plain Node without reading browser globals',
    async (name) => {
      const module = await entries[name]()
      expect(typeof module).toBe('object')
      const offending = reads
        .map((read) => ({ name: read.name, frames: ownFrames(read.stack) }))
        .filter((read) => read.frames.length > 0)
      expect(offending).toEqual([])
    },
  )
})
