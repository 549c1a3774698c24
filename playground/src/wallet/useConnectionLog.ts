import { useEffect } from 'react'
import { useConnection, useConnectionEffect } from 'wagmi'
import { shortHex } from '../ui/format.js'
import type { EmailLogin } from './emailLogin.js'
import { useWalletLog } from './log.js'

/** The EIP-1193 events a provider emits (the page logs each). */
const providerEvents = [
  'connect',
  'disconnect',
  'accountsChanged',
  'chainChanged',
] as const

type Listening = {
  on(event: string, listener: (...args: unknown[]) => void): unknown
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown
}

/**
 * Logs what happens to the connection: wagmi connecting and disconnecting,
 * the connected provider's EIP-1193 events, and the steps of the page's
 * email login.
 */
export function useConnectionLog(emailLogin: EmailLogin): void {
  const { record } = useWalletLog()
  const { connector, status } = useConnection()

  useConnectionEffect({
    onConnect({ address, connector, isReconnected }) {
      record(
        'wagmi',
        isReconnected ? 'reconnected' : 'connected',
        `${shortHex(address)} through ${connector.name} (${connector.type})`,
        { address, connector: { id: connector.id, type: connector.type } },
      )
    },
    onDisconnect() {
      record('wagmi', 'disconnected', 'the page has no account now')
    },
  })

  useEffect(() => {
    // While wagmi reconnects, `connector` is what it stored of the last
    // connection (its id and name), not a connector yet.
    if (status !== 'connected' || !connector) return
    let stopped = false
    const removers: (() => void)[] = []
    connector
      .getProvider()
      .then((value) => {
        if (stopped || !value) return
        const provider = value as Listening
        for (const event of providerEvents) {
          const listener = (detail: unknown) =>
            record('provider', event, describeProviderEvent(event, detail), {
              detail: detail instanceof Error ? detail.message : detail,
            })
          provider.on(event, listener)
          removers.push(() => provider.removeListener(event, listener))
        }
      })
      .catch(() => {
        // No provider, nothing to listen to.
      })
    return () => {
      stopped = true
      for (const remove of removers) remove()
    }
  }, [connector, status, record])

  useEffect(
    () =>
      emailLogin.watchEvents((event, args) =>
        record('login', event, describeLoginEvent(event), args),
      ),
    [emailLogin, record],
  )
}

function describeProviderEvent(event: string, detail: unknown): string {
  switch (event) {
    case 'accountsChanged':
      return Array.isArray(detail) && detail.length > 0
        ? `now ${detail.map((account) => shortHex(String(account))).join(', ')}`
        : 'no account: the session is gone'
    case 'chainChanged':
      return `chain ${Number(detail)}`
    case 'connect':
      return 'the provider reaches the chain'
    case 'disconnect':
      return detail instanceof Error ? detail.message : 'disconnected'
    default:
      return ''
  }
}

function describeLoginEvent(event: string): string {
  const descriptions: Record<string, string> = {
    'email-otp-sent': 'the code is in the dev mailbox',
    'invalid-email-otp': 'wrong code',
    'expired-email-otp': 'the code expired',
    'login-throttled': 'too many codes for this address, wait a little',
    'max-attempts-reached': 'too many wrong codes',
    'device-needs-approval': 'new device: approve it from the mailbox link',
    'device-verification-email-sent': 'device approval link sent',
    'device-approved': 'device approved',
    'device-verification-link-expired': 'device approval link expired',
    done: 'logged in',
    error: 'the login failed',
  }
  return descriptions[event] ?? ''
}
