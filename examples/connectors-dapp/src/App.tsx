import { useState } from 'react'
import { BaseError, parseEther } from 'viem'
import {
  useConfig,
  useConnect,
  useConnection,
  useConnectors,
  useDisconnect,
  useSendTransaction,
  useSignMessage,
} from 'wagmi'
import { verifyMessage, waitForTransactionReceipt } from 'wagmi/actions'

/** Where the dApp's sends go: a burn address, so balances are easy to read. */
export const recipient = '0x000000000000000000000000000000000000dEaD'

/** The message the dApp asks the wallet to sign. */
export const message = 'Hello from the connectors dApp'

/** What a failure says to the person: viem's summary and the wallet's own text. */
function explain(error: unknown): string {
  if (error instanceof BaseError)
    return [error.shortMessage, error.details]
      .filter((part) => part && part !== error.shortMessage.trim())
      .join(' ')
  return error instanceof Error ? error.message : String(error)
}

/**
 * One page: log in with either wallet, send 0.01 ETH, sign a message and
 * check the signature on chain (an EOA's ECDSA for the iframe wallet, the
 * smart wallet's ERC-1271, or ERC-6492 while it is not deployed, for the
 * game wallet: viem's `verifyMessage` covers all three).
 */
export function App() {
  const config = useConfig()
  const { address, connector, status } = useConnection()
  const connectors = useConnectors()
  const connect = useConnect()
  const disconnect = useDisconnect()
  const send = useSendTransaction()
  const sign = useSignMessage()
  const [outcome, setOutcome] = useState<string>()
  const [failure, setFailure] = useState<string>()

  const run = (task: () => Promise<string | undefined>) => async () => {
    setOutcome(undefined)
    setFailure(undefined)
    try {
      setOutcome(await task())
    } catch (error) {
      setFailure(explain(error))
    }
  }

  const login = (id: string) =>
    run(async () => {
      const chosen = connectors.find((each) => each.type === id)
      if (!chosen) throw new Error(`No ${id} connector.`)
      await connect.mutateAsync({ connector: chosen })
      return undefined
    })

  const sendEth = run(async () => {
    const hash = await send.mutateAsync({
      to: recipient,
      value: parseEther('0.01'),
    })
    const receipt = await waitForTransactionReceipt(config, { hash })
    return `Transaction ${receipt.status}: ${hash}`
  })

  const signMessage = run(async () => {
    if (!address) throw new Error('Not connected.')
    const signature = await sign.mutateAsync({ message })
    const valid = await verifyMessage(config, { address, message, signature })
    return valid ? 'Signature verified' : 'Signature NOT valid'
  })

  const busy = connect.isPending || send.isPending || sign.isPending

  return (
    <main>
      <h1>connectors dApp</h1>
      {status === 'connected' ? (
        <section>
          <p>
            Connected with{' '}
            <strong data-testid="wallet">{connector?.name}</strong>:{' '}
            <code data-testid="address">{address}</code>
          </p>
          <button type="button" disabled={busy} onClick={sendEth}>
            Send 0.01 ETH
          </button>
          <button type="button" disabled={busy} onClick={signMessage}>
            Sign message
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={run(async () => {
              await disconnect.mutateAsync({})
              return undefined
            })}
          >
            Log out
          </button>
        </section>
      ) : (
        <section>
          <button type="button" disabled={busy} onClick={login('magic')}>
            Log in with the iframe wallet
          </button>
          <button type="button" disabled={busy} onClick={login('passport')}>
            Log in with the game wallet
          </button>
        </section>
      )}
      {outcome && (
        <p role="status" data-testid="outcome">
          {outcome}
        </p>
      )}
      {failure && (
        <p role="alert" data-testid="failure">
          {failure}
        </p>
      )}
    </main>
  )
}
