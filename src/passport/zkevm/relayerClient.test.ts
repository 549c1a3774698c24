import { afterEach, describe, expect, test, vi } from 'vitest'
import { fileBackends } from '../../../test/unit/setup/zkevm.js'
import { clientSend } from '../../emulator/passport/relayer/testkit.js'
import { metaTransaction } from '../wire/sequence.js'
import { createRelayerClient } from './relayerClient.js'

const b = fileBackends()

afterEach(() => {
  // The spy on the fake setTimeout goes first, then the fake clock.
  vi.restoreAllMocks()
  vi.useRealTimers()
})

/**
 * Lets the HTTP round trips run (real I/O, under fake timers) until
 * `done()` holds.
 */
async function until(done: () => boolean) {
  for (let turn = 0; turn < 10_000; turn++) {
    if (done()) return
    await new Promise((resolve) => setImmediate(resolve))
  }
  throw new Error('It never happened.')
}

describe('RelayerClient.waitForHash', () => {
  test('default: one status request, then 30 retries 1 s apart, then "transaction hash not generated in time"', async () => {
    const { chainId, guardian, relayerControls } = b()
    const player = await b().player()
    await b().register(player)
    const relayer = createRelayerClient({
      relayerUrl: b().relayer.url,
      getAccessToken: async () => player.accessToken,
    })
    // A transaction of the player the guardian allowed, which the relayer
    // takes and never submits.
    const {
      digest,
      params: [send],
    } = await clientSend({
      chainId,
      wallet: player.wallet,
      custody: player.custody,
      nonce: 0n,
      transactions: [
        metaTransaction({ to: '0x00000000000000000000000000000000000000AA' }),
      ],
    })
    guardian.record({
      kind: 'transaction',
      chainId,
      wallet: player.wallet,
      digest,
      state: 'allowed',
      payload: {},
    })
    relayerControls.next('stall', 1, undefined, player.wallet)
    const relayerId = await relayer.sendTransaction(
      player.wallet,
      send!.data,
      chainId,
    )
    const polls = () =>
      b()
        .relayer.calls()
        .filter((call) => call.method === 'im_getTransactionByHash')

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    // The client's waits between polls, told apart by their length from the
    // fetch helper's time-out timer, which is armed while each poll is in
    // flight: the tap records an answer before the client has read it, so
    // "answered and a timer armed" can hold before the wait exists.
    const timeouts = vi.spyOn(globalThis, 'setTimeout')
    const waits = () => timeouts.mock.calls.filter(([, ms]) => ms === 1000)
    const outcome = relayer.waitForHash(relayerId).catch((e: unknown) => e)
    for (let n = 1; n <= 30; n++) {
      await until(() => waits().length === n)
      await vi.advanceTimersByTimeAsync(999)
      expect(polls()).toHaveLength(n)
      await vi.advanceTimersByTimeAsync(1)
    }
    expect(await outcome).toMatchObject({
      code: -32000,
      message: 'transaction hash not generated in time',
    })
    expect(polls()).toHaveLength(31)
    expect(
      polls().map(
        (poll) =>
          (
            JSON.parse(poll.exchange.response ?? '{}') as {
              result?: { status?: string }
            }
          ).result?.status,
      ),
    ).toEqual(Array(31).fill('PENDING'))
  })
})
