import { describe, expect, test } from 'vitest'
import { generate, onDisk } from '../../scripts/generate-api.js'

describe('scripts/generate-api.ts', () => {
  test('behavior: the checked-in clients and wire are what the generator writes from the specs (run `npm run generate:api` when this fails)', async () => {
    const expected = await generate()
    const actual = onDisk()
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort())
    const stale = [...expected]
      .filter(([path, text]) => actual.get(path) !== text)
      .map(([path]) => path)
    expect(stale).toEqual([])
  }, 60_000)
})
