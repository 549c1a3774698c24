import { toHex, verifyMessage } from 'viem'
import { describe, expect, inject, test } from 'vitest'
import { invalidApiKeyError } from '../../src/emulator/magic/provider/protocol.js'
import * as Messages from '../../src/magic/wire/messages.js'
import {
  isEvent,
  type MagicFrame,
  openMagicFrame,
  typeOf,
} from './magicFrame.js'
import { waitForCode } from './mailbox.js'

/**
 * The emulator's `/send` iframe, spoken to over the raw wire protocol from
 * the test page (Vitest's origin; the iframe is on the emulator's magic
 * origin, so this is genuinely cross-origin).
 */
describe('emulated iframe: raw wire protocol', () => {
  const { endpoint, apiKey, mailbox } = inject('magicEmulator')
  const { incoming, outgoing } = Messages

  async function withFrame(
    run: (frame: MagicFrame) => Promise<void>,
    options: { apiKey?: string; domainOrigin?: string } = {},
  ) {
    const frame = await openMagicFrame({
      endpoint,
      apiKey: options.apiKey ?? apiKey,
      domainOrigin: options.domainOrigin,
      waitReady: options.domainOrigin === undefined,
    })
    try {
      await run(frame)
    } finally {
      frame.destroy()
    }
  }

  const sleep = (ms: number) =>
    new Promise((resolve) => setTimeout(resolve, ms))

  test('posts MAGIC_OVERLAY_READY with the exact params suffix', async () => {
    await withFrame(async (frame) => {
      const [ready] = frame.received
      expect(ready?.msgType).toBe(`MAGIC_OVERLAY_READY-${frame.encoded}`)
    })
  })

  test('answers magic_is_logged_in with false for a new device', async () => {
    await withFrame(async (frame) => {
      const response = await frame.request('magic_is_logged_in')
      expect(response).toMatchObject({ jsonrpc: '2.0', result: false })
      expect(response.error ?? undefined).toBeUndefined()
    })
  })

  test('an unknown API key: ready still comes, requests get an error', async () => {
    await withFrame(
      async (frame) => {
        expect(frame.received[0]?.msgType).toBe(
          typeOf(frame, incoming.overlayReady),
        )
        const response = await frame.request('magic_is_logged_in')
        expect(response.result).toBeUndefined()
        expect(response.error).toMatchObject(invalidApiKeyError)
      },
      { apiKey: 'pk_live_UNKNOWN0000000000' },
    )
  })

  test('answers a ping with a pong', async () => {
    await withFrame(async (frame) => {
      const from = frame.received.length
      frame.post(outgoing.ping, { payload: [] })
      const pong = await frame.waitFor(
        (message) => message.msgType === typeOf(frame, incoming.pong),
        { from },
      )
      expect(pong.msgType).toBe(`MAGIC_PONG-${frame.encoded}`)
    })
  })

  test('answers each request of a batch', async () => {
    await withFrame(async (frame) => {
      const ids = [900_001, 900_002]
      frame.post(outgoing.request, {
        payload: ids.map((id) => ({
          jsonrpc: '2.0',
          id,
          method: 'magic_is_logged_in',
          params: [],
        })),
      })
      for (const id of ids)
        expect((await frame.response(id)).response).toMatchObject({
          id,
          result: false,
        })
    })
  })

  test('headless email OTP login, then getInfo and personal_sign', async () => {
    await withFrame(async (frame) => {
      const email = `wire-${crypto.randomUUID()}@example.com`
      const id = await frame.send('magic_auth_login_with_email_otp', [
        { email, showUI: false },
      ])
      await frame.waitFor(isEvent(frame, id, 'email-otp-sent'))
      const code = await waitForCode({ mailbox, to: email })

      const wrong = code.slice(0, -1) + ((Number(code.at(-1)) + 1) % 10)
      await frame.answer(id, 'verify-email-otp', wrong)
      await frame.waitFor(isEvent(frame, id, 'invalid-email-otp'))

      await frame.answer(id, 'verify-email-otp', code)
      const message = await frame.response(id)
      const { result } = message.response as { result?: unknown }
      expect(typeof result).toBe('string')
      const [proof, claim] = JSON.parse(atob(result as string)) as string[]
      expect(proof).toMatch(/^0x[0-9a-f]{130}$/)
      expect(typeof message.rt).toBe('string')
      expect(typeof message.deviceShare).toBe('string')
      // No overlay for a headless flow.
      expect(
        frame.received.some(
          (m) => m.msgType === typeOf(frame, incoming.showOverlay),
        ),
      ).toBe(false)

      const info = await frame.request('magic_get_info')
      const { publicAddress, email: infoEmail } = info.result as {
        publicAddress: `0x${string}`
        email: string
      }
      expect(infoEmail).toBe(email)
      expect(JSON.parse(claim ?? '{}').iss).toBe(`did:ethr:${publicAddress}`)
      expect(await frame.request('magic_is_logged_in')).toMatchObject({
        result: true,
      })

      const text = 'hello from the raw wire'
      const signed = await frame.request('personal_sign', [
        toHex(text),
        publicAddress,
      ])
      expect(
        await verifyMessage({
          address: publicAddress,
          message: text,
          signature: signed.result as `0x${string}`,
        }),
      ).toBe(true)
    })
  })

  test('ignores a message from another window than its parent', async () => {
    await withFrame(async (frame) => {
      const other = document.createElement('iframe')
      other.srcdoc = '<!doctype html><title>other</title>'
      const loaded = new Promise((resolve) =>
        other.addEventListener('load', resolve),
      )
      document.body.append(other)
      await loaded
      try {
        // A function of the other window's realm: it posts as that window.
        const OtherFunction = (
          other.contentWindow as unknown as {
            Function: FunctionConstructor
          }
        ).Function
        const postFromOther = new OtherFunction(
          'target',
          'message',
          'origin',
          'target.postMessage(message, origin)',
        )
        const from = frame.received.length
        const ping = {
          msgType: `${outgoing.ping}-${frame.encoded}`,
          payload: [],
        }
        postFromOther(
          frame.iframe.contentWindow,
          ping,
          new URL(endpoint).origin,
        )
        await sleep(800)
        expect(frame.received.slice(from)).toEqual([])

        // The same message from the parent is answered.
        frame.post(outgoing.ping, { payload: [] })
        await frame.waitFor(
          (message) => message.msgType === typeOf(frame, incoming.pong),
          { from },
        )
      } finally {
        other.remove()
      }
    })
  })

  test('talks only to the origin in its params', async () => {
    // DOMAIN_ORIGIN names another origin than the test page's: the iframe
    // posts ready there (so the browser drops it here) and ignores us.
    await withFrame(
      async (frame) => {
        await sleep(1000)
        frame.post(outgoing.ping, { payload: [] })
        frame.post(outgoing.request, {
          payload: {
            jsonrpc: '2.0',
            id: 1,
            method: 'magic_is_logged_in',
            params: [],
          },
        })
        await sleep(800)
        expect(frame.received).toEqual([])
      },
      { domainOrigin: 'http://127.0.0.1:9' },
    )
  })
})
