import type { Passport } from '@imtbl/passport'
import type { Magic } from 'magic-sdk'
import {
  type Address,
  createPublicClient,
  type EIP1193Provider,
  getAddress,
  type Hex,
  http,
  parseEther,
  toHex,
} from 'viem'
import { type Info, loadEmulatorInfo } from './emulator.js'
import { createMagic, createPassport } from './wallets.js'

/** Where the dApp's sends go: a burn address, so balances are easy to read. */
export const recipient = '0x000000000000000000000000000000000000dEaD'

/** The message the dApp asks the wallet to sign. */
export const message = 'Hello from the published SDKs dApp'

/** The wallet the person logged in with: its name, provider and account. */
type Session = {
  name: string
  provider: Pick<EIP1193Provider, 'request'>
  address: Address
}

function element<kind extends HTMLElement>(id: string): kind {
  const found = document.getElementById(id)
  if (!found) throw new Error(`The page has no #${id}.`)
  return found as kind
}

const outcome = element<HTMLParagraphElement>('outcome')
const failure = element<HTMLParagraphElement>('failure')
const buttons = [...document.querySelectorAll('button')]

/** Runs one action of the page, showing what it gave or why it failed. */
function action(task: () => Promise<string | undefined>) {
  return async () => {
    outcome.hidden = failure.hidden = true
    for (const button of buttons) button.disabled = true
    try {
      const text = await task()
      if (text) {
        outcome.textContent = text
        outcome.hidden = false
      }
    } catch (error) {
      failure.textContent =
        error instanceof Error ? error.message : String(error)
      failure.hidden = false
    } finally {
      for (const button of buttons) button.disabled = false
    }
  }
}

async function start(info: Info) {
  const chain = createPublicClient({ transport: http(info.rpcUrl) })
  let magic: Magic | undefined
  let passport: Passport | undefined
  let session: Session | undefined

  const show = (next: Session) => {
    session = next
    element('wallet').textContent = next.name
    element('address').textContent = next.address
    element('logged-out').hidden = true
    element('logged-in').hidden = false
  }

  element('login-magic').addEventListener(
    'click',
    action(async () => {
      magic ??= createMagic(info)
      // Email code: the wallet's own screen asks for the code it sent.
      const email = element<HTMLInputElement>('email').value
      await magic.auth.loginWithEmailOTP({ email })
      const [account] = (await magic.rpcProvider.request({
        method: 'eth_accounts',
      })) as string[]
      if (!account) throw new Error('The iframe wallet gave no account.')
      show({
        name: 'Magic',
        provider: magic.rpcProvider as Session['provider'],
        address: getAddress(account),
      })
      return undefined
    }),
  )

  element('login-passport').addEventListener(
    'click',
    action(async () => {
      passport ??= createPassport(info)
      // Sign-in in the login popup, then the zkEVM provider; asking for the
      // accounts registers the player's smart wallet.
      await passport.login()
      const provider = await passport.connectEvm({ announceProvider: false })
      const [account] = (await provider.request({
        method: 'eth_requestAccounts',
      })) as string[]
      if (!account) throw new Error('The game wallet gave no account.')
      show({
        name: 'Immutable Passport',
        provider: provider as Session['provider'],
        address: getAddress(account),
      })
      return undefined
    }),
  )

  element('send').addEventListener(
    'click',
    action(async () => {
      if (!session) throw new Error('Not connected.')
      const hash = (await session.provider.request({
        method: 'eth_sendTransaction',
        params: [
          {
            from: session.address,
            to: recipient,
            value: toHex(parseEther('0.01')),
          },
        ],
      })) as Hex
      const receipt = await chain.waitForTransactionReceipt({ hash })
      return `Transaction ${receipt.status}: ${hash}`
    }),
  )

  element('sign').addEventListener(
    'click',
    action(async () => {
      if (!session) throw new Error('Not connected.')
      const signature = (await session.provider.request({
        method: 'personal_sign',
        params: [toHex(message), session.address],
      })) as Hex
      // An EOA's ECDSA signature, a deployed smart wallet's ERC-1271 or a
      // counterfactual one's ERC-6492: viem's verifyMessage checks each on
      // chain.
      const valid = await chain.verifyMessage({
        address: session.address,
        message,
        signature,
      })
      return valid ? 'Signature verified' : 'Signature NOT valid'
    }),
  )
}

loadEmulatorInfo().then(start, (error: unknown) => {
  failure.textContent = String(error)
  failure.hidden = false
})
