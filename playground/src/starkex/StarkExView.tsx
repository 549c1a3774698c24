import type { IMXProvider, Passport } from 'embedded-wallets/passport'
import { useMemo, useRef, useState } from 'react'
import { useConnection } from 'wagmi'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { LongValue } from '../ui/LongValue.js'
import { createExchange, type Exchange, mintTestAssets } from './exchange.js'
import { SellForm, TransferForm } from './forms.js'
import { Holdings, Orders, Trades, Transfers } from './lists.js'
import { useExchangeReads, useShown, useStarkExLayer } from './useStarkEx.js'
import './starkex.css'

/**
 * The game wallet's StarkEx layer: register, the Stark key, balances and
 * NFTs, transfer, sell orders, buying (a trade) and the trades, through
 * `passport.connectImx…()` and the exchange's generated read clients.
 */
export function StarkExView(props: { info: Info; passport: Passport }) {
  const { info, passport } = props
  const { status, address, connector } = useConnection()
  if (status !== 'connected' || !address || !connector)
    return (
      <p className="muted" data-testid="starkex-connect-first">
        StarkEx belongs to the game wallet: connect it with the Connect button
        at the top to register, trade and transfer here.
      </p>
    )
  if (!isGameWallet(connector))
    return (
      <p className="muted" data-testid="starkex-connect-first">
        StarkEx belongs to the game wallet, and {connector.name} is connected:
        disconnect it and connect the game wallet with the Connect button at the
        top.
      </p>
    )
  return <StarkExAccount key={address} info={info} passport={passport} />
}

/** The game wallet's EIP-6963 rdns, its wagmi connector's id. */
const gameWalletRdns = 'com.immutable.passport'

function isGameWallet(connector: { id: string; rdns?: unknown }) {
  const rdns = Array.isArray(connector.rdns) ? connector.rdns : [connector.rdns]
  return connector.id === gameWalletRdns || rdns.includes(gameWalletRdns)
}

/** The connected game wallet's StarkEx account. */
function StarkExAccount(props: { info: Info; passport: Passport }) {
  const { info, passport } = props
  const exchange = useMemo(() => createExchange(info), [info])
  const { layer, register, registering } = useStarkExLayer(passport, exchange)

  if (layer.state === 'loading')
    return (
      <p className="muted" data-testid="starkex-loading">
        Opening the game wallet's StarkEx account…
      </p>
    )
  if (layer.state === 'signed-out')
    return (
      <p className="muted" data-testid="starkex-signed-out">
        The game wallet has no session on this page: disconnect and connect it
        again with the Connect button at the top.
      </p>
    )
  if (layer.state === 'failed')
    return (
      <div className="panel row">
        <p className="muted" data-testid="starkex-failed">
          The StarkEx account could not be opened.
        </p>
        <button type="button" onClick={layer.retry} data-testid="starkex-retry">
          Try again
        </button>
      </div>
    )
  if (layer.state === 'unregistered')
    return (
      <div className="panel starkex-register">
        <p>
          Status:{' '}
          <strong data-testid="starkex-registered" data-registered="false">
            Not registered
          </strong>
        </p>
        <p className="hint">
          Registering tells the exchange your Stark key, derived from the game
          wallet's key; it asks for no fee and no on-chain transaction.
        </p>
        <button
          type="submit"
          onClick={register}
          disabled={registering}
          data-testid="starkex-register"
        >
          {registering ? 'Registering…' : 'Register with StarkEx'}
        </button>
      </div>
    )
  return (
    <RegisteredAccount
      info={info}
      exchange={exchange}
      imx={layer.imx}
      address={layer.address}
      starkKey={layer.starkKey}
    />
  )
}

/** A registered player's account: what they hold, and what they can do. */
function RegisteredAccount(props: {
  info: Info
  exchange: Exchange
  imx: IMXProvider
  address: string
  starkKey: string | undefined
}) {
  const { info, exchange, imx, address, starkKey } = props
  const root = useRef<HTMLDivElement>(null)
  const { reads, refresh } = useExchangeReads(exchange, address, useShown(root))
  const { report, clear } = useFailures('starkex')
  const [minting, setMinting] = useState(false)
  const [minted, setMinted] = useState<string>()

  const mint = async () => {
    clear()
    setMinting(true)
    setMinted(undefined)
    try {
      const tokenId = await mintTestAssets(info, exchange, address)
      setMinted(tokenId)
      await refresh()
    } catch (error) {
      report('Minting test assets', error)
    } finally {
      setMinting(false)
    }
  }

  return (
    <div className="starkex" data-testid="starkex-account" ref={root}>
      <div className="starkex-cards">
        <section className="panel starkex-card">
          <h3>Account</h3>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <strong
                className="ok"
                data-testid="starkex-registered"
                data-registered="true"
              >
                Registered
              </strong>
            </dd>
            <dt>StarkEx address</dt>
            <dd>
              <LongValue value={address} testId="starkex-address" />
            </dd>
            <dt>Stark key</dt>
            <dd>
              {starkKey ? (
                <LongValue value={starkKey} testId="starkex-stark-key" />
              ) : (
                <span className="muted">reading…</span>
              )}
            </dd>
          </dl>
          <div className="starkex-dev">
            <button
              type="button"
              onClick={mint}
              disabled={minting}
              data-testid="starkex-mint"
            >
              {minting ? 'Minting…' : 'Mint test assets'}
            </button>
            <span className="starkex-dev-label">dev</span>
            <p className="hint">
              The emulator's StarkEx faucet: 1 ETH and one TestERC721 into your
              vaults.
            </p>
            {minted && (
              <p className="ok" data-testid="starkex-mint-result">
                Minted 1 ETH and TestERC721 #{minted}.
              </p>
            )}
          </div>
        </section>
        <Holdings info={info} reads={reads} />
      </div>
      <div className="starkex-cards">
        <TransferForm info={info} imx={imx} reads={reads} onDone={refresh} />
        <SellForm info={info} imx={imx} reads={reads} onDone={refresh} />
      </div>
      <Orders
        info={info}
        imx={imx}
        address={address}
        reads={reads}
        onDone={refresh}
      />
      <Trades info={info} reads={reads} />
      <Transfers info={info} address={address} reads={reads} />
    </div>
  )
}
