import { afterEach, beforeAll, describe, expect, inject, test } from 'vitest'
import { commands } from 'vitest/browser'
import {
  eventType,
  messages,
  paths,
  sizes,
  windowName,
} from '../../src/passport/wire/confirmation.js'

/*
 * The guardian's StarkEx confirmation page on the emulated passport domain,
 * in a real popup: the test registers a StarkEx request and its pending
 * verdict as the exchange and the platform API would (the loopback-only
 * `/dev/verdicts`), opens the page as the wallet does, speaks the wallet's
 * side of the protocol itself, plays the person through Playwright
 * (setup/popupCommands.ts) and reads the verdict's state back.
 */

const { passportDomain } = inject('passportEmulator')
const wallet = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'
const collection = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const receiver = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const page = `${passportDomain}${paths.transaction}`

let opened: Window | null = null

beforeAll(() => commands.popupsClose(passportDomain))

afterEach(async () => {
  if (opened && !opened.closed) opened.close()
  opened = null
  await commands.popupsGone(passportDomain)
})

type Verdict = { id: string; state: string; digest: string }

/** Registers a pending batch NFT transfer of two NFTs. */
async function registerBatch(): Promise<Verdict & { payloadHash: string }> {
  // A fresh 63-digit hash each time, as StarkEx prints a Pedersen hash.
  const payloadHash = [...crypto.getRandomValues(new Uint8Array(32))]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .replace(/^0*/, '1')
    .slice(0, 63)
  const response = await fetch(`${passportDomain}/dev/verdicts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      kind: 'starkex',
      wallet,
      payloadHash,
      type: 'batchNftTransfer',
      details: {
        sender_ether_key: wallet,
        signable_requests: ['7', '8'].map((token_id) => ({
          amount: '1',
          token: {
            type: 'ERC721',
            data: { token_id, token_address: collection },
          },
          receiver,
        })),
      },
    }),
  })
  expect(response.status).toBe(201)
  return { ...((await response.json()) as Verdict), payloadHash }
}

async function stateOf(id: string): Promise<string> {
  const response = await fetch(`${passportDomain}/dev/verdicts/${id}`)
  return ((await response.json()) as Verdict).state
}

/**
 * Opens the confirmation page for `transactionId` as the published SDK
 * does (480x784 for a batch) and plays the wallet: answers the popup's
 * ready with `confirmation_start` and resolves with the popup's answer.
 * `seen` lists every message type the popup sent.
 */
function openConfirmation(transactionId: string) {
  const url = `${page}?${new URLSearchParams({
    transactionId,
    etherAddress: wallet,
    chainType: 'starkex',
  })}`
  const seen: string[] = []
  const popup = window.open(
    url,
    windowName,
    `width=${sizes.batchTransfer.width},height=${sizes.batchTransfer.height}`,
  )
  opened = popup
  const answer = new Promise<string>((resolve) => {
    const listener = (event: MessageEvent) => {
      if (event.origin !== passportDomain || event.source !== popup) return
      const data = event.data as { eventType?: string; messageType?: string }
      if (data?.eventType !== eventType || !data.messageType) return
      seen.push(data.messageType)
      if (data.messageType === messages.ready) {
        popup?.postMessage(
          { eventType, messageType: messages.start },
          passportDomain,
        )
        return
      }
      removeEventListener('message', listener)
      resolve(data.messageType)
    }
    addEventListener('message', listener)
  })
  return { url, answer, seen }
}

describe('StarkEx confirmation page', () => {
  test('default: shows the batch NFT transfer in words; Confirm answers transaction_confirmed and the verdict is allowed', async () => {
    const request = await registerBatch()
    const { url, answer, seen } = openConfirmation(request.payloadHash)
    expect(await commands.popupTitle(url)).toBe('Confirm this transaction')
    expect(await commands.popupText(url, 'confirmation-starkex-type')).toBe(
      'Transfer of NFTs',
    )
    const details = await commands.popupText(url, 'confirmation-details')
    for (const part of [
      `NFT 1 of 2NFT #7 of collection ${collection}`,
      `NFT 2 of 2NFT #8 of collection ${collection}`,
      `To${receiver}`,
      `From${wallet}`,
    ])
      expect(details).toContain(part)
    expect(await commands.popupText(url, 'confirmation-approve')).toBe(
      'Confirm',
    )
    await commands.popupClick(url, 'confirmation-approve')
    expect(await answer).toBe(messages.transactionConfirmed)
    expect(seen).toEqual([messages.ready, messages.transactionConfirmed])
    expect(await stateOf(request.id)).toBe('allowed')
  })

  test('behavior: Reject answers transaction_rejected and the verdict is rejected', async () => {
    const request = await registerBatch()
    const { url, answer } = openConfirmation(`0x${request.payloadHash}`)
    await commands.popupClick(url, 'confirmation-reject')
    expect(await answer).toBe(messages.transactionRejected)
    expect(await stateOf(request.id)).toBe('rejected')
  })

  test('error: an unknown payload hash shows the error state and answers transaction_error', async () => {
    const { url, answer } = openConfirmation('abc0123')
    expect(await commands.popupText(url, 'confirmation-error')).toBe(
      'This request is unknown or has expired.',
    )
    expect(await answer).toBe(messages.transactionError)
  })
})
