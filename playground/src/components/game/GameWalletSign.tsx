import { type FormEvent, useState } from 'react'
import type { Address, Hex } from 'viem'
import type { GameWallet } from '../../passport/useGameWallet.js'
import { messageOf, toJson } from '../../ui/format.js'

/**
 * The suffix of an ERC-6492 signature: the wallet wraps its signature with
 * the factory call that would deploy it, so a verifier can check it before
 * the wallet exists (EIP-6492).
 */
const erc6492Suffix =
  '6492649264926492649264926492649264926492649264926492649264926492'

/** A signature and what the chain says of it. */
type Checked = {
  signature: Hex
  valid: boolean
  /** Whether the wallet contract existed when it was checked. */
  deployed: boolean
}

type Result = Checked | { failed: string }

/**
 * Signs a text (`personal_sign`) with the game wallet and checks the
 * signature on the chain with viem's `verifyMessage` (ERC-1271 once the
 * wallet is deployed, ERC-6492 before).
 */
export function GameSignMessage(props: {
  wallet: GameWallet
  address: Address
}) {
  const { wallet, address } = props
  const [message, setMessage] = useState('Hello from the game wallet')
  const [result, setResult] = useState<Result>()
  const [busy, setBusy] = useState(false)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const { provider } = wallet
    if (!provider) return
    setBusy(true)
    setResult(undefined)
    // In the click's turn: the wallet's popup opens before any await.
    const signing = provider.request({
      method: 'personal_sign',
      params: [message as Hex, address],
    })
    void check(
      wallet,
      address,
      signing,
      (signature) =>
        wallet.client.verifyMessage({ address, message, signature }),
      setResult,
    ).finally(() => setBusy(false))
  }

  return (
    <form className="stack" onSubmit={submit}>
      <div className="field">
        <label htmlFor="game-sign-message">Message</label>
        <textarea
          id="game-sign-message"
          data-testid="game-sign-message-input"
          rows={2}
          value={message}
          onChange={(event) => {
            setMessage(event.target.value)
            setResult(undefined)
          }}
        />
      </div>
      <div>
        <button
          type="submit"
          disabled={!wallet.provider || busy}
          data-testid="game-sign-message-submit"
        >
          {busy ? 'Signing…' : 'Sign message'}
        </button>
      </div>
      {result && <CheckedResult result={result} testId="game-sign-message" />}
    </form>
  )
}

/**
 * Signs EIP-712 typed data (`eth_signTypedData_v4`) and checks the
 * signature with viem's `verifyTypedData` against the chain.
 */
export function GameSignTypedData(props: {
  wallet: GameWallet
  address: Address
  chainId: number
}) {
  const { wallet, address, chainId } = props
  const [contents, setContents] = useState('Meet at the bridge at noon.')
  const [result, setResult] = useState<Result>()
  const [busy, setBusy] = useState(false)
  const typedData = {
    domain: { name: 'embedded-wallets playground', version: '1', chainId },
    types: {
      Mail: [
        { name: 'from', type: 'address' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    message: { from: address, contents },
  } as const

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const { provider } = wallet
    if (!provider) return
    setBusy(true)
    setResult(undefined)
    const signing = provider.request({
      method: 'eth_signTypedData_v4',
      params: [address, toJson(typedData)],
    })
    void check(
      wallet,
      address,
      signing,
      (signature) =>
        wallet.client.verifyTypedData({ address, signature, ...typedData }),
      setResult,
    ).finally(() => setBusy(false))
  }

  return (
    <form className="stack" onSubmit={submit}>
      <div className="field">
        <label htmlFor="game-sign-typed-contents">Mail contents</label>
        <input
          id="game-sign-typed-contents"
          data-testid="game-sign-typed-input"
          value={contents}
          onChange={(event) => {
            setContents(event.target.value)
            setResult(undefined)
          }}
        />
      </div>
      <details>
        <summary>What the wallet signs (EIP-712)</summary>
        <pre data-testid="game-sign-typed-preview">{toJson(typedData)}</pre>
      </details>
      <div>
        <button
          type="submit"
          disabled={!wallet.provider || busy}
          data-testid="game-sign-typed-submit"
        >
          {busy ? 'Signing…' : 'Sign typed data'}
        </button>
      </div>
      {result && <CheckedResult result={result} testId="game-sign-typed" />}
    </form>
  )
}

/** Waits for a signature, then checks it against the chain. */
async function check(
  wallet: GameWallet,
  address: Address,
  signing: Promise<unknown>,
  verify: (signature: Hex) => Promise<boolean>,
  show: (result: Result) => void,
) {
  try {
    const signature = (await signing) as Hex
    const code = await wallet.client.getCode({ address })
    const deployed = code !== undefined && code !== '0x'
    const valid = await verify(signature)
    show({ signature, valid, deployed })
  } catch (error) {
    show({ failed: messageOf(error) })
  }
}

function CheckedResult(props: { result: Result; testId: string }) {
  const { result, testId } = props
  if ('failed' in result)
    return (
      <p className="error" data-testid={`${testId}-error`}>
        {result.failed}
      </p>
    )
  const wrapped = result.signature.toLowerCase().endsWith(erc6492Suffix)
  return (
    <div className="result" data-testid={`${testId}-result`}>
      <dl className="facts">
        <dt>Signature</dt>
        <dd>
          <code className="hash" data-testid={`${testId}-signature`}>
            {result.signature}
          </code>
        </dd>
        <dt>On chain</dt>
        <dd
          data-testid={`${testId}-verified`}
          data-valid={result.valid}
          className={result.valid ? 'ok' : 'error'}
        >
          {result.valid ? '✓ valid' : '✗ invalid'}
        </dd>
        <dt>Wallet deployed</dt>
        <dd data-testid={`${testId}-deployed`}>
          {result.deployed
            ? 'yes (checked with ERC-1271)'
            : `not yet (${wrapped ? 'an ERC-6492 signature' : 'a plain signature'})`}
        </dd>
      </dl>
    </div>
  )
}
