import { Magic } from 'embedded-wallets/magic'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { Address } from 'viem'
import type { Info } from '../emulator.js'
import { EventLog, type LogEntry } from './EventLog.js'
import { MagicActions } from './MagicActions.js'
import { Mailbox } from './Mailbox.js'

type Step =
  | { name: 'logged-out' }
  | { name: 'awaiting-code'; submit: (code: string) => void; error?: string }
  | { name: 'working'; what: string }
  | { name: 'logged-in'; address: Address; email: string }

/**
 * The iframe wallet against the emulator: log in by email code (the
 * provider's screens, or headless with the code typed here), then read the
 * user, get an id token, sign and send on the local chain, with a live log
 * of every event and the dev mailbox.
 */
export function MagicPanel(props: { info: Info }) {
  const { info } = props
  const magicInfo = info.magic
  const magic = useMemo(
    () =>
      magicInfo
        ? new Magic(magicInfo.apiKey, {
            endpoint: magicInfo.endpoint,
            network: { rpcUrl: info.rpcUrl, chainId: info.chainId },
            useStorageCache: true,
          })
        : undefined,
    [magicInfo, info.rpcUrl, info.chainId],
  )
  const [email, setEmail] = useState('player@example.com')
  const [step, setStep] = useState<Step>({ name: 'logged-out' })
  const [output, setOutput] = useState<{ label: string; value: string }>()
  const [log, setLog] = useState<readonly LogEntry[]>([])
  const code = useRef<HTMLInputElement>(null)
  const nextId = useRef(0)

  const record = useCallback(
    (source: string, event: string, detail?: unknown) => {
      const id = nextId.current++
      setLog((entries) =>
        [{ id, at: new Date(), source, event, detail }, ...entries].slice(
          0,
          100,
        ),
      )
    },
    [],
  )

  const showUser = useCallback(async () => {
    if (!magic) return
    const user = await magic.user.getInfo()
    const address = (user.wallets?.ethereum?.publicAddress ??
      user.publicAddress) as Address
    setStep({ name: 'logged-in', address, email: user.email ?? '' })
    record('user', 'getInfo', user)
  }, [magic, record])

  useEffect(() => {
    if (!magic) return
    const provider = magic.rpcProvider
    const names = ['connect', 'disconnect', 'accountsChanged', 'chainChanged']
    const handlers = names.map((name) => {
      const handler = (detail: unknown) => record('rpcProvider', name, detail)
      provider.on(name, handler)
      return () => provider.removeListener(name, handler)
    })
    magic.user.isLoggedIn().then(async (loggedIn) => {
      if (loggedIn) await showUser()
    })
    return () => {
      for (const remove of handlers) remove()
    }
  }, [magic, record, showUser])

  if (!magic || !magicInfo)
    return (
      <p data-testid="magic-missing">
        The emulator info has no <code>magic</code> section.
      </p>
    )

  async function run(what: string, action: () => Promise<unknown>) {
    const previous = step
    setStep({ name: 'working', what })
    try {
      const value = await action()
      setOutput({ label: what, value: JSON.stringify(value, null, 2) })
      record('result', what, value)
    } catch (error) {
      setOutput({ label: `${what} failed`, value: String(error) })
      record('error', what, String(error))
    } finally {
      setStep((current) => (current.name === 'working' ? previous : current))
    }
  }

  function login(showUI: boolean) {
    if (!magic) return
    const handle = magic.auth.loginWithEmailOTP({ email, showUI })
    for (const event of [
      'email-otp-sent',
      'invalid-email-otp',
      'expired-email-otp',
      'login-throttled',
      'done',
      'error',
      'settled',
    ])
      handle.on(
        event as never,
        ((...args: unknown[]) => record('login', event, args)) as never,
      )
    if (!showUI) {
      const submit = (value: string) => handle.emit('verify-email-otp', value)
      handle.on('email-otp-sent', () =>
        setStep({ name: 'awaiting-code', submit }),
      )
      handle.on('invalid-email-otp', () =>
        setStep({
          name: 'awaiting-code',
          submit,
          error: 'Wrong code, try again.',
        }),
      )
    } else setStep({ name: 'working', what: 'Logging in (provider screens)…' })
    handle
      .then(() => showUser())
      .catch((error: unknown) => {
        record('login', 'failed', String(error))
        setStep({ name: 'logged-out' })
      })
  }

  return (
    <div className="magic">
      {step.name === 'logged-out' && (
        <form className="row" onSubmit={(event) => event.preventDefault()}>
          <input
            data-testid="magic-email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <button
            type="button"
            data-testid="magic-login-ui"
            onClick={() => login(true)}
          >
            Log in (provider screens)
          </button>
          <button
            type="button"
            data-testid="magic-login-headless"
            onClick={() => login(false)}
          >
            Log in (headless)
          </button>
        </form>
      )}
      {step.name === 'awaiting-code' && (
        <form
          className="row"
          onSubmit={(event) => {
            event.preventDefault()
            step.submit(code.current?.value ?? '')
            setStep({ name: 'working', what: 'Checking the code…' })
          }}
        >
          <span>Code sent to {email}</span>
          <input data-testid="magic-code" ref={code} inputMode="numeric" />
          <button type="submit" data-testid="magic-code-submit">
            Verify
          </button>
          {step.error && <span className="error">{step.error}</span>}
        </form>
      )}
      {step.name === 'working' && (
        <p data-testid="magic-working">{step.what}</p>
      )}
      {step.name === 'logged-in' && (
        <MagicActions
          magic={magic}
          user={step}
          chainId={info.chainId}
          rpcUrl={info.rpcUrl}
          run={run}
          onLoggedOut={() => setStep({ name: 'logged-out' })}
        />
      )}
      {output && (
        <div className="output">
          <h3>{output.label}</h3>
          <pre data-testid="magic-output">{output.value}</pre>
        </div>
      )}
      <EventLog entries={log} />
      <Mailbox mailbox={info.mailbox} to={email} />
    </div>
  )
}
