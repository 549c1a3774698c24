import { describe, expect, test } from 'vitest'
import { decodeDidToken } from './didToken.js'
import {
  call,
  codeOf,
  createDevice,
  createTestService,
  eventsOf,
  open,
} from './testkit.js'

/** The host's external wallet in these tests. */
const external = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

async function setup() {
  const env = createTestService()
  return { ...env, device: await createDevice({ now: env.now }) }
}

describe('mc_login (connectWithUI)', () => {
  test("behavior: the login announces its token as connectWithUI listens for it: id-token-created with { idToken }, not the other logins' Auth/id-token-created", async () => {
    const { app, mailbox, registry, device } = await setup()
    const flow = await open(app, 'mc_login', [{ enabledWallets: {} }], {
      device,
    })
    await flow.until((line) => line.kind === 'screen')
    await flow.answer('submit-email', 'connect@example.com')
    await flow.event('email-otp-sent')
    await flow.answer(
      'verify-email-otp',
      codeOf(mailbox, 'connect@example.com'),
    )
    const { response } = await flow.done()
    const user = registry.find({ email: 'connect@example.com' })!
    expect(response.result).toEqual([user.address])
    const events = eventsOf(flow.lines)
    expect(events.map(([name]) => name)).toEqual([
      'email-otp-sent',
      'id-token-created',
    ])
    const [, payload] = events[1] as [string, { idToken: string }]
    expect(decodeDidToken(payload.idToken).parsed.iss).toBe(
      `did:ethr:${user.address}`,
    )
  })

  test('behavior: with enabledWallets.web3modal the screen offers the external wallet; picking it emits web3modal_selected, and wallet_connected answers with its address and no session', async () => {
    const { app, device } = await setup()
    const flow = await open(
      app,
      'mc_login',
      [{ enabledWallets: { web3modal: true } }],
      { device },
    )
    expect(await flow.until((line) => line.kind === 'screen')).toEqual({
      kind: 'screen',
      screen: 'login',
      data: { wallets: ['web3modal'] },
    })
    await flow.answer('connect-wallet')
    await flow.event('web3modal_selected')
    await flow.answer('wallet_connected', external.toLowerCase())
    const { response, rt } = await flow.done()
    expect(response.result).toEqual([external])
    expect(rt).toBeUndefined()
    expect((await call(app, 'magic_is_logged_in', [], { device })).result).toBe(
      false,
    )
  })

  test('behavior: wallet_rejected brings the screen back; the email login still works', async () => {
    const { app, mailbox, registry, device } = await setup()
    const flow = await open(
      app,
      'mc_login',
      [{ enabledWallets: { web3modal: true } }],
      { device },
    )
    await flow.until((line) => line.kind === 'screen')
    await flow.answer('connect-wallet')
    await flow.event('web3modal_selected')
    await flow.answer('wallet_rejected')
    expect(
      await flow.until(
        (line) =>
          line.kind === 'screen' &&
          line.screen === 'login' &&
          line.data.connecting === undefined,
      ),
    ).toMatchObject({ data: { wallets: ['web3modal'] } })
    await flow.answer('submit-email', 'after@example.com')
    await flow.event('email-otp-sent')
    await flow.answer('verify-email-otp', codeOf(mailbox, 'after@example.com'))
    expect((await flow.done()).response.result).toEqual([
      registry.find({ email: 'after@example.com' })!.address,
    ])
  })

  test('error: autoPromptThirdPartyWallets picks the wallet at once; a rejection ends the request with -32603', async () => {
    const { app, device } = await setup()
    const flow = await open(
      app,
      'mc_login',
      [
        {
          enabledWallets: { web3modal: true },
          autoPromptThirdPartyWallets: true,
        },
      ],
      { device },
    )
    await flow.event('web3modal_selected')
    await flow.answer('wallet_rejected')
    expect((await flow.done()).response.error).toEqual({
      code: -32603,
      message: 'User canceled the action.',
    })
  })

  test('behavior: without enabledWallets.web3modal nothing is offered and a connect-wallet answer is not taken', async () => {
    const { app, mailbox, registry, device } = await setup()
    for (const enabledWallets of [undefined, { metamask: true }]) {
      const flow = await open(app, 'mc_login', [{ enabledWallets }], {
        device,
      })
      expect(await flow.until((line) => line.kind === 'screen')).toEqual({
        kind: 'screen',
        screen: 'login',
        data: {},
      })
      await flow.answer('connect-wallet')
      await flow.answer('submit-email', 'plain@example.com')
      await flow.event('email-otp-sent')
      await flow.answer(
        'verify-email-otp',
        codeOf(mailbox, 'plain@example.com'),
      )
      expect((await flow.done()).response.result).toEqual([
        registry.find({ email: 'plain@example.com' })!.address,
      ])
      expect(eventsOf(flow.lines).map(([name]) => name)).not.toContain(
        'web3modal_selected',
      )
      await call(app, 'magic_auth_logout', [], { device })
    }
  })
})
