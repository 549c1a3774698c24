import { describe, expect, test } from 'vitest'
import { TestKitError, WaitTimeoutError } from './kit.js'
import { waitFor } from './wait.js'

describe('waitFor', () => {
  test('behavior: resolves with the value once the probe finds it', async () => {
    let looks = 0
    const value = await waitFor('the third look', 2000, async () =>
      ++looks === 3 ? { value: 'found' } : { saw: `look ${looks}` },
    )
    expect(value).toBe('found')
    expect(looks).toBe(3)
  })

  test('error: a time-out names what it waited for and what the probe saw last', async () => {
    let looks = 0
    const error = await waitFor('green light', 150, async () => ({
      saw: `red light ${++looks}`,
    })).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(WaitTimeoutError)
    expect((error as WaitTimeoutError).shortMessage).toBe(
      `No green light within 150 ms; last seen: red light ${looks}.`,
    )
  })

  test('behavior: a probe that throws is a look that saw the error (its first line)', async () => {
    const error = await waitFor('a page', 100, async () => {
      throw new Error(
        'Target page, context or browser has been closed\nCall log: …',
      )
    }).catch((error: unknown) => error)
    expect((error as WaitTimeoutError).shortMessage).toBe(
      'No a page within 100 ms; last seen: Target page, context or browser has been closed.',
    )
  })

  test('error: a TestKitError from the probe ends the wait at once', async () => {
    const started = Date.now()
    const refused = new TestKitError('The code was refused.')
    await expect(
      waitFor('a login', 5000, async () => {
        throw refused
      }),
    ).rejects.toBe(refused)
    expect(Date.now() - started).toBeLessThan(1000)
  })
})
