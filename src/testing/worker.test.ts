import { describe, expect, test } from 'vitest'
import { slots } from '../emulator/ports.js'
import { workerPortStripe, workerStripes } from './worker.js'

describe('workerPortStripe', () => {
  test("behavior: the blocks of any two workers' stripes never overlap, and stay below the ephemeral range", () => {
    const count = slots.length + 1
    const blocks = Array.from({ length: workerStripes }, (_, workerIndex) => {
      const { first, last } = workerPortStripe({ workerIndex, count })
      // Every port a block drawn in this stripe can take.
      return { from: first, to: last + count - 1 }
    })
    for (const [index, block] of blocks.entries()) {
      expect(block.from).toBeGreaterThanOrEqual(20_000)
      expect(block.to).toBeLessThanOrEqual(32_767)
      const next = blocks[index + 1]
      if (next) expect(block.to).toBeLessThan(next.from)
    }
  })

  test('behavior: the stripes are cut exactly and repeat past the last one', () => {
    expect(workerPortStripe({ workerIndex: 0, count: 10 })).toEqual({
      first: 20_000,
      last: 20_788,
    })
    expect(workerPortStripe({ workerIndex: 1, count: 10 })).toEqual({
      first: 20_798,
      last: 21_586,
    })
    expect(
      workerPortStripe({ workerIndex: workerStripes + 1, count: 10 }),
    ).toEqual(workerPortStripe({ workerIndex: 1, count: 10 }))
  })

  test('error: a block wider than a stripe is refused', () => {
    expect(() => workerPortStripe({ workerIndex: 0, count: 799 })).toThrow(
      'count must be a whole number from 1 to 798.',
    )
  })
})
