import { useEffect, useRef } from 'react'
import type { Info } from '../emulator.js'
import { useWalletLog } from '../wallet/log.js'
import { EmulatorPanel } from './EmulatorPanel.js'
import { EventLog } from './EventLog.js'
import { Mailbox } from './Mailbox.js'

/**
 * The developer's side drawer: the emulator's chain and contracts, the dev
 * mailbox (where login codes arrive, so it works signed out too), the
 * wallet event log, and a link to the emulator's own UI. It stays mounted
 * while closed, hidden, so that the mailbox and the log keep following
 * what happens; Escape, the backdrop and its close button close it.
 */
export function DevDrawer(props: {
  info: Info
  open: boolean
  onClose: () => void
}) {
  const { info, open, onClose } = props
  const log = useWalletLog()
  const closeButton = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    closeButton.current?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open, onClose])

  return (
    <div className="drawer-root" hidden={!open} data-testid="dev-root">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the backdrop; Escape closes too */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Escape, see above */}
      <div
        className="drawer-backdrop"
        data-testid="dev-backdrop"
        onClick={onClose}
      />
      <aside
        className="drawer"
        role="dialog"
        aria-modal="true"
        aria-labelledby="dev-title"
        data-testid="dev-drawer"
      >
        <header className="drawer-head">
          <h2 id="dev-title">Dev</h2>
          <a
            href={info.ui}
            target="_blank"
            rel="noreferrer"
            data-testid="dev-ui-link"
          >
            Emulator UI ↗
          </a>
          <button
            type="button"
            className="close"
            aria-label="Close"
            data-testid="dev-close"
            ref={closeButton}
            onClick={onClose}
          >
            ×
          </button>
        </header>
        <p className="panel-sentence">
          What runs behind the page on this machine: the emulated services,
          their chain and the mail they would send.
        </p>
        <section className="drawer-part" data-testid="panel-mailbox">
          <h3>Dev mailbox</h3>
          <p className="panel-sentence">
            The codes and links the emulated services would email, newest first.
          </p>
          <Mailbox mailbox={info.mailbox} />
        </section>
        <section className="drawer-part" data-testid="panel-emulator">
          <h3>Chain and contracts</h3>
          <p className="panel-sentence">
            The local chain (Anvil) the wallets use, live, and the contracts
            deployed on it.
          </p>
          <EmulatorPanel info={info} />
        </section>
        <section className="drawer-part" data-testid="panel-events">
          <h3>Wallet events</h3>
          <p className="panel-sentence">
            What the connection, the wallet’s provider and the email login
            reported, newest first.
          </p>
          <EventLog entries={log.entries} onClear={log.clear} />
        </section>
      </aside>
    </div>
  )
}
