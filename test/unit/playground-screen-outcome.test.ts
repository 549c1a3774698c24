import { describe, expect, test } from 'vitest'
import { outcomeOf } from '../../playground/src/components/magic/outcome.js'
import { MagicRPCError } from '../../src/magic/errors.js'

// How the playground's iframe-wallet screens read each answer: closing a
// screen is a cancel, never a failure for the banner.
describe('playground: the outcome of an iframe-wallet screen', () => {
  test('behavior: a screen closed after its work answers true: done', () => {
    expect(outcomeOf(true)).toEqual({
      state: 'done',
      words: 'Done (answered true).',
    })
  })

  test('behavior: closing a flow half-way (-10014) is a cancel', () => {
    const closed = new MagicRPCError({
      code: -10014,
      message: 'User canceled the request.',
    })
    expect(outcomeOf(undefined, closed).state).toBe('cancelled')
  })

  test("behavior: update email's cancel (-10004, the user cancelled) is a cancel", () => {
    const closed = new MagicRPCError({
      code: -10004,
      message: 'The email was not updated: the user cancelled.',
    })
    expect(outcomeOf(undefined, closed).state).toBe('cancelled')
  })

  test('error: any other failure is a failure, update email included', () => {
    for (const error of [
      new MagicRPCError({
        code: -10011,
        message: 'This account has no recovery phone number.',
      }),
      new MagicRPCError({ code: -10004, message: 'The email is taken.' }),
      new Error('offline'),
    ])
      expect(outcomeOf(undefined, error)).toEqual({
        state: 'failed',
        words: 'Failed: see the banner above.',
      })
  })

  test('behavior: an NFT flow answers its status', () => {
    expect(outcomeOf({ status: 'cancelled' }).state).toBe('cancelled')
    expect(outcomeOf({ status: 'processed' })).toEqual({
      state: 'done',
      words: 'Done: the NFT is yours.',
    })
    expect(outcomeOf({ status: 'declined' })).toEqual({
      state: 'failed',
      words: 'Ended: declined.',
    })
  })
})
