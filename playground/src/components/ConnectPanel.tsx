import type { EIP6963ProviderDetail } from 'mipd'
import {
  createContext,
  type FormEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
} from 'react'
import type { EIP1193Provider } from 'viem'
import {
  type Connector,
  type CreateConnectorFn,
  injected,
  useConnect,
  useConnection,
  useConnectors,
} from 'wagmi'
import { useFailures } from '../ui/errors.js'
import {
  type EmailLogin,
  LoginCancelled,
  type LoginChoice,
} from '../wallet/emailLogin.js'
import { useWalletLog } from '../wallet/log.js'
import { useAnnouncedWallets } from '../wallet/useAnnouncedWallets.js'
import { LatestCode } from './Mailbox.js'

/** Opens the Connect modal, from anywhere on the page. */
const OpenConnectContext = createContext<(() => void) | undefined>(undefined)

/**
 * The one way in: a modal that lists every wallet, grouped by rdns: each
 * configured wagmi connector (the iframe wallet's with its email-code form
 * and screens, the game wallet's), with beside it the same wallet's
 * EIP-6963 announcement when it made one, then every other wallet
 * announced on the page. Any part of the page opens it through
 * {@link useOpenConnect} (the top bar's Connect button, the wallet
 * section's call to action). Cancelling (closing the modal, or the
 * wallet's own login) is not an error: it is logged, nothing is shown.
 */
export function ConnectModalProvider(props: {
  emailLogin: EmailLogin
  /** The dev mailbox's URL. */
  mailbox: string
  children: ReactNode
}) {
  const { emailLogin, mailbox, children } = props
  const [open, setOpen] = useState(false)
  const { status } = useConnection()
  const close = useCallback(() => {
    // A code login under way is given up with the modal.
    emailLogin.cancel()
    setOpen(false)
  }, [emailLogin])
  // Connected: the modal has done its work.
  useEffect(() => {
    if (status === 'connected') setOpen(false)
  }, [status])
  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open, close])
  const openModal = useCallback(() => setOpen(true), [])
  return (
    <OpenConnectContext.Provider value={openModal}>
      {children}
      {open && (
        // Not a modal <dialog>: its top layer would put the wallets' own
        // overlays (the iframe wallet's screens, the blocked-popup prompt)
        // under it and make them inert. Escape closes it (listener above).
        // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop
        // biome-ignore lint/a11y/useKeyWithClickEvents: Escape, see above
        <div
          className="modal-backdrop"
          onClick={(event) => {
            if (event.target === event.currentTarget) close()
          }}
        >
          <div
            role="dialog"
            aria-modal="true"
            aria-labelledby="connect-modal-title"
            className="connect-modal"
            data-testid="connect-modal"
          >
            <header className="row">
              <h2 id="connect-modal-title">Connect a wallet</h2>
              <button
                type="button"
                className="close"
                aria-label="Close"
                data-testid="connect-close"
                onClick={close}
              >
                ×
              </button>
            </header>
            <ConnectPanel emailLogin={emailLogin} mailbox={mailbox} />
          </div>
        </div>
      )}
    </OpenConnectContext.Provider>
  )
}

/** Opens the Connect modal of {@link ConnectModalProvider}. */
export function useOpenConnect(): () => void {
  const open = useContext(OpenConnectContext)
  if (!open) throw new Error('ConnectModalProvider is missing.')
  return open
}

/**
 * The top bar's Connect button (`connect-open`), or, while wagmi looks for
 * the last visit's session, what it is doing.
 */
export function ConnectButton() {
  const open = useOpenConnect()
  const { status } = useConnection()
  return (
    <>
      <button
        type="button"
        className="primary"
        data-testid="connect-open"
        disabled={status === 'reconnecting'}
        onClick={open}
      >
        {status === 'reconnecting' ? 'Reconnecting…' : 'Connect'}
      </button>
      {status === 'reconnecting' && (
        <span className="muted" data-testid="connect-reconnecting">
          Looking for the session of your last visit…
        </span>
      )}
    </>
  )
}

/**
 * Whether `error` (or one of its causes) is the user giving up: the page's
 * email form cancelled, a wallet's EIP-1193 4001 (user rejected), or the
 * game wallet's login popup closed.
 */
export function isCancel(error: unknown): boolean {
  for (let at = error, depth = 0; at && depth < 8; depth++) {
    if (at instanceof LoginCancelled) return true
    const { code, name, cause } = at as {
      code?: unknown
      name?: unknown
      cause?: unknown
    }
    if (code === 4001 || name === 'PopupClosedError') return true
    at = cause
  }
  return false
}

/** The modal's contents: every wallet, grouped by rdns. */
function ConnectPanel(props: { emailLogin: EmailLogin; mailbox: string }) {
  const { emailLogin, mailbox } = props
  const connectors = useConnectors()
  const { status } = useConnection()
  const connect = useConnect()
  const failures = useFailures('wallet')
  const { record } = useWalletLog()
  const announced = useAnnouncedWallets()
  // wagmi's own discovery adds connectors for announced wallets; the modal
  // lists those with the announcements, so only the configured ones here.
  const configured = connectors.filter(
    (connector) => connector.type !== 'injected',
  )
  const magicConnector = configured.find(
    (connector) => connector.type === 'magic',
  )
  const others = configured.filter((connector) => connector !== magicConnector)
  const rdnsOfConnectors = new Set(
    configured.flatMap((connector) => rdnsList(connector.rdns)),
  )
  const announcementOf = (connector: Connector) =>
    announced.find((wallet) =>
      rdnsList(connector.rdns).includes(wallet.info.rdns),
    )
  const unmatched = announced.filter(
    (wallet) => !rdnsOfConnectors.has(wallet.info.rdns),
  )

  const start = async (
    what: string,
    connector: Connector | CreateConnectorFn,
    choice?: LoginChoice | undefined,
  ) => {
    failures.clear()
    if (choice) emailLogin.choose(choice)
    try {
      await connect.mutateAsync({ connector })
    } catch (error) {
      if (isCancel(error)) record('login', 'cancelled')
      else failures.report(what, error)
    }
  }
  const busy = connect.isPending || status === 'reconnecting'
  const viaAnnouncement = (wallet: EIP6963ProviderDetail | undefined) =>
    wallet && (
      <AnnouncedButton
        wallet={wallet}
        disabled={busy}
        onConnect={() =>
          start(
            `Connecting ${wallet.info.name} (EIP-6963)`,
            connectorOf(wallet),
          )
        }
      />
    )

  return (
    <div className="connect" data-testid="connect-wallets">
      {magicConnector && (
        <section
          className="wallet-group"
          data-testid="wallet-group"
          data-rdns={rdnsOf(magicConnector.rdns)}
        >
          <MagicConnect
            connector={magicConnector}
            emailLogin={emailLogin}
            busy={busy}
            mailbox={mailbox}
            onConnect={(what, choice) => start(what, magicConnector, choice)}
          />
          {viaAnnouncement(announcementOf(magicConnector))}
        </section>
      )}
      {others.map((connector) => (
        <section
          key={connector.uid}
          className="wallet-group"
          data-testid="wallet-group"
          data-rdns={rdnsOf(connector.rdns)}
        >
          <h3 className="with-icon">
            {isImage(connector.icon) && <img src={connector.icon} alt="" />}
            {connector.name}
            {connector.type === 'passport' && ': the game wallet'}, through its
            wagmi connector
          </h3>
          <WalletButton
            name={connector.name}
            icon={connector.icon}
            detail={rdnsOf(connector.rdns)}
            disabled={busy}
            testId="connector"
            onClick={() => start(`Connecting ${connector.name}`, connector)}
          />
          {connector.type === 'passport' && (
            <p className="hint">
              Signs in with the provider’s login popup (the code lands in the
              dev mailbox), then registers a new player’s wallet.
            </p>
          )}
          {viaAnnouncement(announcementOf(connector))}
        </section>
      ))}
      <section aria-labelledby="announced-title">
        <h3 id="announced-title">Other wallets announced on this page</h3>
        <p className="hint">
          Each wallet that announces itself through EIP-6963, connected as
          wagmi’s <code>injected</code> wallet. Ours announce themselves too:
          they are listed with their connectors above.
        </p>
        {unmatched.length === 0 ? (
          <p className="muted" data-testid="providers-empty">
            No other wallet announced.
          </p>
        ) : (
          <ul className="wallets" data-testid="announced-wallets">
            {unmatched.map((wallet) => (
              <li key={wallet.info.uuid}>{viaAnnouncement(wallet)}</li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}

/** One announced wallet's connect button, labelled with its channel. */
function AnnouncedButton(props: {
  wallet: EIP6963ProviderDetail
  disabled: boolean
  onConnect: () => void
}) {
  const { wallet, disabled, onConnect } = props
  return (
    <WalletButton
      name={`${wallet.info.name} (EIP-6963)`}
      icon={wallet.info.icon}
      detail={wallet.info.rdns}
      disabled={disabled}
      testId="announced-wallet"
      onClick={onConnect}
    />
  )
}

/** The iframe wallet's connector: the email-code form and the screens. */
function MagicConnect(props: {
  connector: Connector
  emailLogin: EmailLogin
  busy: boolean
  mailbox: string
  onConnect: (what: string, choice: LoginChoice) => void
}) {
  const { connector, emailLogin, busy, mailbox, onConnect } = props
  const login = useSyncExternalStore(emailLogin.subscribe, emailLogin.getState)
  const [email, setEmail] = useState('player@example.com')
  const [code, setCode] = useState('')

  const sendCode = (event: FormEvent) => {
    event.preventDefault()
    setCode('')
    onConnect(`Logging in ${email}`, { kind: 'email', email: email.trim() })
  }
  const verify = (event: FormEvent) => {
    event.preventDefault()
    emailLogin.submitCode(code.trim())
  }

  return (
    <section className="magic-connect" aria-labelledby="magic-connect-title">
      <h3 id="magic-connect-title" className="with-icon">
        {connector.icon && <img src={connector.icon} alt="" />}
        {connector.name}: the iframe wallet, through its wagmi connector
      </h3>
      {login.step === 'idle' && (
        <>
          <form className="row" onSubmit={sendCode}>
            <label htmlFor="magic-email">Email</label>
            <input
              id="magic-email"
              data-testid="magic-email"
              type="email"
              required
              autoComplete="email"
              value={email}
              disabled={busy}
              onChange={(event) => setEmail(event.target.value)}
            />
            <button
              type="submit"
              disabled={busy}
              data-testid="magic-login-headless"
            >
              Email me a code
            </button>
          </form>
          <p className="hint">
            The code lands in the dev mailbox on this page. Any address works; a
            new one gets a new wallet with 100 test ETH. The published SDK’s
            test address <code>test+success@example.com</code> skips the code
            only for a client created with <code>testMode: true</code>, which
            this page does not use.
          </p>
          <p className="row">
            <button
              type="button"
              disabled={busy}
              data-testid="magic-login-ui"
              onClick={() =>
                onConnect('Logging in with the wallet’s screens', {
                  kind: 'screens',
                })
              }
            >
              Use the wallet’s own login screens
            </button>
          </p>
          <p className="hint">
            The screens cover this page while they ask for your email and code:
            open the{' '}
            <a href={`${mailbox}/view`} target="_blank" rel="noreferrer">
              dev mailbox in a new tab ↗
            </a>{' '}
            first.
          </p>
        </>
      )}
      {login.step === 'sending' && (
        <p data-testid="magic-working">Sending a code to {login.email}…</p>
      )}
      {(login.step === 'code' || login.step === 'checking') && (
        <LatestCode mailbox={mailbox} to={login.email} />
      )}
      {(login.step === 'code' || login.step === 'checking') && (
        <form className="row" onSubmit={verify}>
          <label htmlFor="magic-code">Code sent to {login.email}</label>
          <input
            id="magic-code"
            data-testid="magic-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            disabled={login.step === 'checking'}
            aria-invalid={login.step === 'code' && login.problem !== undefined}
            aria-describedby="magic-code-problem"
            onChange={(event) => setCode(event.target.value)}
          />
          <button
            type="submit"
            disabled={login.step === 'checking'}
            data-testid="magic-code-submit"
          >
            {login.step === 'checking' ? 'Checking…' : 'Verify'}
          </button>
          <button
            type="button"
            data-testid="magic-code-cancel"
            onClick={() => emailLogin.cancel()}
          >
            Cancel
          </button>
          {login.step === 'code' && login.problem && (
            <span
              className="error"
              id="magic-code-problem"
              data-testid="magic-code-problem"
            >
              {login.problem === 'invalid'
                ? 'Wrong code, try again.'
                : 'That code expired: use the newest one in the mailbox.'}
            </span>
          )}
        </form>
      )}
      {login.step === 'device' && (
        <p data-testid="magic-device">
          {login.email} is known on another device: open the approval link in
          the dev mailbox to let this browser in.
        </p>
      )}
    </section>
  )
}

/** A wallet to connect: its icon, name and rdns on one button. */
function WalletButton(props: {
  name: string
  icon: string | undefined
  detail: string
  disabled: boolean
  testId: string
  onClick: () => void
}) {
  const { name, icon, detail, disabled, testId, onClick } = props
  return (
    <button
      type="button"
      className="wallet"
      disabled={disabled}
      data-testid={testId}
      data-rdns={detail}
      onClick={onClick}
    >
      {isImage(icon) ? (
        <img src={icon} alt="" width={32} height={32} />
      ) : (
        <span className="icon-placeholder" aria-hidden="true" />
      )}
      <span className="wallet-name" data-testid="provider-name">
        Connect {name}
      </span>
      <code data-testid="provider-rdns">{detail}</code>
    </button>
  )
}

/**
 * wagmi's `injected` connector for one announced wallet, as wagmi's own
 * discovery builds it (id and name from the announcement).
 */
function connectorOf(wallet: EIP6963ProviderDetail): CreateConnectorFn {
  const { info, provider } = wallet
  return injected({
    target: {
      id: info.rdns,
      name: info.name,
      icon: info.icon,
      provider: provider as EIP1193Provider,
    },
  })
}

function rdnsList(rdns: string | readonly string[] | undefined) {
  if (rdns === undefined) return []
  return typeof rdns === 'string' ? [rdns] : rdns
}

function rdnsOf(rdns: string | readonly string[] | undefined): string {
  return rdnsList(rdns).join(', ') || '—'
}

/** Only data-URI images (as EIP-6963 requires) or http(s) URLs are shown. */
function isImage(icon: string | undefined): icon is string {
  return icon !== undefined && /^(data:image\/|https?:\/\/)/.test(icon)
}
