import { type FormEvent, type ReactNode, useState } from 'react'
import {
  type Address,
  type Hex,
  isAddress,
  isAddressEqual,
  recoverMessageAddress,
  recoverTypedDataAddress,
} from 'viem'
import { usePublicClient, useSignMessage, useSignTypedData } from 'wagmi'
import { useFailures } from '../ui/errors.js'
import { shortHex, toJson } from '../ui/format.js'
import { LongValue } from '../ui/LongValue.js'
import { useWalletLog } from '../wallet/log.js'

/**
 * A signature, what was signed and who signed it: the connected account
 * when the chain says the signature is valid for it (an EOA's by ecrecover,
 * a smart-contract wallet's by ERC-1271, or ERC-6492 before it is
 * deployed), otherwise the key an EOA signature recovers to, if any.
 */
type Signed = { signed: string; signature: Hex; signer: Address | undefined }

/**
 * Who signed: `address` when the chain accepts the signature for it, else
 * the recovered key (`undefined` when the signature is not an EOA's).
 */
async function signerOf(
  valid: Promise<boolean>,
  address: Address,
  recover: () => Promise<Address>,
): Promise<Address | undefined> {
  if (await valid) return address
  return recover().catch(() => undefined)
}

/**
 * Signs a text message (EIP-191 `personal_sign`) with the connected
 * wallet, either of them, through wagmi: the text is what the
 * wallet signs, and the result names the signer recovered from the
 * signature. Editing the text clears the result, which described the old one.
 */
export function SignMessageForm(props: { address: Address }) {
  const { address } = props
  const [message, setMessage] = useState('Hello from the playground')
  const [result, setResult] = useState<Signed>()
  const sign = useSignMessage()
  const client = usePublicClient()
  const failures = useFailures('wallet')
  const { record } = useWalletLog()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    failures.clear()
    setResult(undefined)
    try {
      const signature = await sign.mutateAsync({ message })
      const signer = await signerOf(
        client
          ? client.verifyMessage({ address, message, signature })
          : Promise.resolve(false),
        address,
        () => recoverMessageAddress({ message, signature }),
      )
      setResult({ signed: message, signature, signer })
      record('dapp', 'signed message', `“${message}”`, { message, signature })
    } catch (error) {
      failures.report('Signing the message', error)
    }
  }

  return (
    <form className="stack" onSubmit={submit}>
      <div className="field">
        <label htmlFor="sign-message">Message to sign</label>
        <textarea
          id="sign-message"
          data-testid="sign-message-input"
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
          disabled={sign.isPending}
          data-testid="sign-message-submit"
        >
          {sign.isPending ? 'Signing…' : 'Sign message'}
        </button>
      </div>
      {result && (
        <SignedResult result={result} address={address} testId="sign-message">
          <p>
            Signed the message{' '}
            <q data-testid="sign-message-signed">{result.signed}</q>
          </p>
        </SignedResult>
      )}
    </form>
  )
}

/**
 * Signs EIP-712 typed data: a small `Mail` from the account to a recipient.
 * The form shows the whole typed data the wallet receives (domain, types,
 * message) as it is edited; the result names the recovered signer.
 */
export function SignTypedDataForm(props: {
  address: Address
  chainId: number
}) {
  const { address, chainId } = props
  const [to, setTo] = useState('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
  const [contents, setContents] = useState('Meet at the bridge at noon.')
  const [result, setResult] = useState<Signed>()
  const sign = useSignTypedData()
  const client = usePublicClient()
  const failures = useFailures('wallet')
  const { record } = useWalletLog()

  const validTo = isAddress(to.trim(), { strict: false })
  const typedData = {
    domain: { name: 'embedded-wallets playground', version: '1', chainId },
    types: {
      Mail: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    message: { from: address, to: to.trim() as Address, contents },
  } as const

  const edit = (set: (value: string) => void) => (value: string) => {
    set(value)
    setResult(undefined)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!validTo) return
    failures.clear()
    setResult(undefined)
    try {
      const signature = await sign.mutateAsync(typedData)
      const signer = await signerOf(
        client
          ? client.verifyTypedData({ ...typedData, address, signature })
          : Promise.resolve(false),
        address,
        () => recoverTypedDataAddress({ ...typedData, signature }),
      )
      setResult({ signed: toJson(typedData), signature, signer })
      record('dapp', 'signed typed data', `Mail to ${shortHex(to)}`, {
        typedData,
        signature,
      })
    } catch (error) {
      failures.report('Signing the typed data', error)
    }
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="typed-to">Mail to</label>
        <input
          id="typed-to"
          data-testid="typed-to"
          spellCheck={false}
          value={to}
          aria-invalid={!validTo}
          aria-describedby="typed-to-problem"
          onChange={(event) => edit(setTo)(event.target.value)}
        />
        {!validTo && (
          <span className="error" id="typed-to-problem">
            Enter an address: 0x and 40 hex digits.
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="typed-contents">Contents</label>
        <input
          id="typed-contents"
          data-testid="typed-contents"
          value={contents}
          onChange={(event) => edit(setContents)(event.target.value)}
        />
      </div>
      <details>
        <summary>What the wallet signs (EIP-712)</summary>
        <pre data-testid="typed-data-preview">{toJson(typedData)}</pre>
      </details>
      <div>
        <button
          type="submit"
          disabled={sign.isPending || !validTo}
          data-testid="typed-submit"
        >
          {sign.isPending ? 'Signing…' : 'Sign typed data'}
        </button>
      </div>
      {result && (
        <SignedResult result={result} address={address} testId="typed">
          <p>
            Signed the <code>Mail</code> to {shortHex(to)}: “{contents}”
          </p>
        </SignedResult>
      )}
    </form>
  )
}

/** A signature and whether its recovered signer is the connected account. */
function SignedResult(props: {
  result: Signed
  address: Address
  testId: string
  children: ReactNode
}) {
  const { result, address, testId, children } = props
  const mine =
    result.signer !== undefined && isAddressEqual(result.signer, address)
  return (
    <div className="result" data-testid={`${testId}-result`}>
      {children}
      <dl className="facts">
        <dt>Signature</dt>
        <dd>
          <LongValue value={result.signature} testId={`${testId}-signature`} />
        </dd>
        <dt>Signer</dt>
        <dd>
          {result.signer ? (
            // An address: short enough to show whole.
            <LongValue
              value={result.signer}
              keep={21}
              testId={`${testId}-signer`}
            />
          ) : (
            <span data-testid={`${testId}-signer`}>
              not an account of this chain
            </span>
          )}{' '}
          <span
            className={mine ? 'ok' : 'error'}
            data-testid={`${testId}-mine`}
          >
            {mine ? '✓ your account' : '✗ not your account'}
          </span>
        </dd>
      </dl>
    </div>
  )
}
