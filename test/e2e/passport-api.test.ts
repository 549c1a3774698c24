/**
 * The game wallet's backend as the emulator wires it: a player signed in at
 * the identity provider gets their custody key from the key-custody API,
 * the same key the iframe wallet's OIDC login reaches with their id token;
 * that key's registration signature (made by the key-custody API, as the
 * published SDK has it made) registers the 2-of-2 wallet of the key and
 * the deployed co-signer; the next id token carries it; the guardian
 * evaluates for it; and the JSON line's overrides point at each service.
 */
import { decodeJwt } from 'jose'
import { type Hex, recoverMessageAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Emulator, startEmulator } from '../../src/emulator/index.js'
import { decodeDidToken } from '../../src/emulator/magic/provider/didToken.js'
import {
  call,
  createDevice,
} from '../../src/emulator/magic/provider/testkit.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import {
  tokenRequest,
  tokensFor,
} from '../../src/emulator/passport/identity/testkit.js'
import { slots } from '../../src/emulator/ports.js'
import { registrationMessage } from '../../src/passport/wire/api.js'
import { playerWalletAddress } from '../../src/passport/wire/sequence.js'

let emulator: Emulator

beforeAll(async () => {
  emulator = await startEmulator({
    portBase: await findFreePortRange(slots.length),
    anvilPort: await findFreePort(),
  })
})
afterAll(() => emulator?.stop())

describe('the game wallet backend', () => {
  test('behavior: custody key, iframe-wallet login, registration, claims and a guardian evaluation, end to end', async () => {
    const { passport } = emulator.info
    const { overrides } = passport
    const tokens = await tokensFor(
      {
        issuer: passport.authenticationDomain,
        clientId: passport.clientId,
        mailbox: emulator.mailbox,
      },
      'e2e-player@example.com',
    )
    const teeHeaders = {
      authorization: `Bearer ${tokens.idToken}`,
      'content-type': 'application/json',
      'x-magic-api-key': overrides.magicPublishableApiKey,
      'x-oidc-provider-id': overrides.magicProviderId,
      'x-magic-chain': 'ETH',
    }
    const created = await fetch(`${overrides.magicTeeBasePath}/v1/wallet`, {
      method: 'POST',
      headers: teeHeaders,
    })
    const { public_address: custody } = (await created.json()) as {
      public_address: Hex
    }
    expect(created.status).toBe(200)

    const login = await call(
      {
        request: (path, init) =>
          fetch(`${overrides.magicEndpoint}${path}`, init),
      },
      'magic_auth_login_with_oidc',
      [{ jwt: tokens.idToken, providerId: overrides.magicProviderId }],
      // The custody app's login: its OIDC provider logs no other app in.
      {
        device: await createDevice(),
        apiKey: overrides.magicPublishableApiKey,
      },
    )
    expect(decodeDidToken(login.result as string).parsed.iss).toBe(
      `did:ethr:${custody}`,
    )

    const signed = await fetch(
      `${overrides.magicTeeBasePath}/v1/wallet/sign/message`,
      {
        method: 'POST',
        headers: teeHeaders,
        body: JSON.stringify({
          message_base64: Buffer.from(registrationMessage).toString('base64'),
        }),
      },
    )
    const { signature } = (await signed.json()) as { signature: Hex }
    expect(
      await recoverMessageAddress({ message: registrationMessage, signature }),
    ).toBe(custody)
    // The SDK re-serialises the signature with v 0/1.
    const v = Number.parseInt(signature.slice(130), 16) - 27
    const chains = (await (
      await fetch(`${overrides.indexerMrBasePath}/v1/chains`)
    ).json()) as { result: { id: string; name: string }[] }
    const chain = chains.result.find(
      (entry) => entry.id === `eip155:${overrides.zkEvmChainId}`,
    )
    expect(chain?.name).toBe(overrides.zkEvmChainName)
    const registered = await fetch(
      `${overrides.indexerMrBasePath}/v2/chains/${chain?.name}/passport/counterfactual-address`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.accessToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          ethereum_address: custody,
          ethereum_signature: `${signature.slice(0, 130)}0${v}`,
        }),
      },
    )
    const wallet = playerWalletAddress({
      custody,
      contracts: emulator.info.contracts,
    })
    expect(registered.status).toBe(200)
    expect(await registered.json()).toEqual({ counterfactual_address: wallet })

    const refreshed = await tokenRequest(passport.authenticationDomain, {
      grant_type: 'refresh_token',
      client_id: passport.clientId,
      refresh_token: tokens.refreshToken,
    })
    expect(decodeJwt(String(refreshed.body.id_token)).passport).toEqual({
      zkevm_eth_address: wallet,
      zkevm_user_admin_address: custody,
    })

    const evaluated = await fetch(
      `${overrides.indexerMrBasePath}/guardian/v1/erc191-messages/evaluate`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.accessToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          chainID: `eip155:${overrides.zkEvmChainId}`,
          payload: 'hello',
        }),
      },
    )
    expect(await evaluated.json()).toMatchObject({
      confirmationRequired: false,
      confirmationMethod: 'web',
    })
  })
})
