import { useQuery } from '@tanstack/react-query'
import type { Magic } from 'embedded-wallets/magic'
import { type ReactNode, useState } from 'react'
import { useConnection } from 'wagmi'
import type { Info } from '../../emulator.js'
import { useFailures } from '../../ui/errors.js'
import { useOpenConnect } from '../ConnectPanel.js'
import { Panel } from '../Panel.js'
import { outcomeOf, type ScreenOutcome } from './outcome.js'

/** The iframe wallet's rdns (its connector and its EIP-6963 announcement). */
const iframeWalletRdns = 'link.magic'

/** A small picture for the NFT checkout screen (a data URI: no network). */
const nftImage = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#3b5bdb"/><text x="32" y="40" font-size="20" text-anchor="middle" fill="#fff" font-family="sans-serif">NFT</text></svg>',
)}`

/** One screen a button opens. */
type Screen = {
  id: string
  label: string
  /** One sentence: what the screen does. */
  sentence: string
  open: () => PromiseLike<unknown>
  disabled?: boolean | undefined
}

/**
 * The iframe wallet's own screens, opened over the page through the page's
 * client (`magic`, which shares the connected session): the wallet's
 * screens, MFA, email update, recovery, NFT checkout, revealing the key and
 * the settings. Each button says what it opens; its result shows beside
 * it. Closing a screen is a cancel, not a failure; failures go to the
 * banner. Only while the iframe wallet is the connected wallet.
 */
export function IframeWalletScreens(props: { info: Info; magic: Magic }) {
  const { info, magic } = props
  const { status, address, connector } = useConnection()
  const openConnect = useOpenConnect()
  const connected =
    status === 'connected' &&
    connector !== undefined &&
    (connector.type === 'magic' ||
      connector.id === iframeWalletRdns ||
      [connector.rdns ?? []].flat().includes(iframeWalletRdns))
  if (!connected || !address)
    return (
      <div className="call-to-action" data-testid="magic-screens-need">
        <p>
          Connect the iframe wallet (Connect, then an email code) to open its
          screens here.
        </p>
        <button type="button" onClick={openConnect}>
          Connect
        </button>
      </div>
    )
  return <Screens key={address} info={info} magic={magic} address={address} />
}

function Screens(props: { info: Info; magic: Magic; address: string }) {
  const { info, magic, address } = props
  const { report, clear } = useFailures('wallet')
  const [running, setRunning] = useState<string>()
  const [outcomes, setOutcomes] = useState<Record<string, ScreenOutcome>>({})
  const [newEmail, setNewEmail] = useState('')
  const user = useQuery({
    queryKey: ['iframe-wallet-user', address],
    queryFn: () => magic.user.getInfo(),
    retry: false,
  })
  const email = user.data?.email ?? undefined
  const mfa = user.data?.isMfaEnabled
  const recoveryPhone = user.data?.recoveryFactors.find(
    (factor) => factor.type === 'phone_number',
  )?.value

  const run = async (screen: Screen) => {
    clear()
    setRunning(screen.id)
    try {
      const outcome = outcomeOf(await screen.open())
      setOutcomes((current) => ({ ...current, [screen.id]: outcome }))
    } catch (error) {
      const outcome = outcomeOf(undefined, error)
      if (outcome.state === 'failed') report(screen.label, error)
      setOutcomes((current) => ({ ...current, [screen.id]: outcome }))
    } finally {
      setRunning(undefined)
      void user.refetch()
    }
  }

  const nft = {
    contractAddress: info.contracts.testErc721,
    tokenId: '1',
    name: 'Test NFT',
  }
  const groups: readonly {
    id: string
    title: string
    sentence: string
    screens: readonly Screen[]
    extra?: ReactNode
  }[] = [
    {
      id: 'wallet',
      title: 'Wallet screens',
      sentence:
        'The wallet’s own views of this account, as a user of any dApp embedding it would see them.',
      screens: [
        {
          id: 'show-ui',
          label: 'Wallet',
          sentence: 'The wallet’s home: address and ETH balance.',
          open: () => magic.wallet.showUI(),
        },
        {
          id: 'show-address',
          label: 'Receive',
          sentence: 'The address to receive on.',
          open: () => magic.wallet.showAddress(),
        },
        {
          id: 'show-balances',
          label: 'Balances',
          sentence: 'ETH and the test token.',
          open: () => magic.wallet.showBalances(),
        },
        {
          id: 'show-send',
          label: 'Send tokens',
          sentence: 'Sends ETH from the wallet’s own form.',
          open: () => magic.wallet.showSendTokensUI(),
        },
        {
          id: 'show-nfts',
          label: 'NFTs',
          sentence: 'The test NFTs the account owns.',
          open: () => magic.wallet.showNFTs(),
        },
      ],
    },
    {
      id: 'security',
      title: 'Security',
      sentence:
        'Two-factor authentication, the account’s key and its settings, each in the wallet’s screens.',
      screens: [
        mfa
          ? {
              id: 'mfa',
              label: 'Turn off MFA',
              sentence: 'Asks for an authenticator or recovery code.',
              open: () => magic.user.disableMFA(),
            }
          : {
              id: 'mfa',
              label: 'Turn on MFA',
              sentence:
                'Shows a TOTP secret for an authenticator app, then recovery codes.',
              open: () => magic.user.enableMFA(),
              disabled: user.isPending,
            },
        {
          id: 'reveal-key',
          label: 'Reveal key',
          sentence: 'Shows the account’s private key, inside the iframe only.',
          open: () => magic.user.revealEVMPrivateKey(),
        },
        {
          id: 'settings',
          label: 'Settings',
          sentence: 'Email, MFA and the recovery phone in one menu.',
          open: () => magic.user.showSettings(),
        },
      ],
    },
    {
      id: 'account',
      title: 'Email and recovery',
      sentence:
        'Changing the login email (both addresses get a code) and recovering the account with its recovery phone.',
      screens: [
        {
          id: 'update-email',
          label: 'Change email',
          sentence: 'To the address below.',
          open: () => magic.auth.updateEmailWithUI({ email: newEmail.trim() }),
          disabled: !/^[^\s@]+@[^\s@]+$/.test(newEmail.trim()),
        },
        {
          id: 'recover',
          label: 'Recover account',
          sentence: recoveryPhone
            ? `An SMS code to the recovery phone ${recoveryPhone} (in the dev mailbox).`
            : 'Needs a recovery phone: add one in Settings first.',
          open: () => magic.user.recoverAccount({ email: email ?? '' }),
          disabled: email === undefined || recoveryPhone === undefined,
        },
      ],
      extra: (
        <div className="field">
          <label htmlFor="magic-new-email">New email</label>
          <input
            id="magic-new-email"
            type="email"
            placeholder="new-address@example.com"
            value={newEmail}
            data-testid="magic-new-email"
            onChange={(event) => setNewEmail(event.target.value)}
          />
        </div>
      ),
    },
    {
      id: 'nft',
      title: 'NFT checkout',
      sentence:
        'The wallet’s checkout for a test NFT: confirming mints one to this account.',
      screens: [
        {
          id: 'nft-checkout',
          label: 'Checkout',
          sentence: 'magic.nft.checkout, paid by the wallet.',
          open: () =>
            magic.nft.checkout({
              contractId: nft.contractAddress,
              tokenId: nft.tokenId,
              name: nft.name,
              imageUrl: nftImage,
            }),
        },
        {
          id: 'nft-purchase',
          label: 'Purchase',
          sentence: 'magic.nft.purchase, the fiat purchase flow.',
          open: () => magic.nft.purchase({ nft, identityPrefill: {} }),
        },
      ],
    },
  ]

  return (
    <div className="panels" data-testid="magic-screens">
      {groups.map((group) => (
        <Panel
          key={group.id}
          id={`magic-${group.id}`}
          title={group.title}
          description={group.sentence}
        >
          {group.extra}
          <ul className="screens">
            {group.screens.map((screen) => {
              const outcome = outcomes[screen.id]
              return (
                <li key={screen.id} className="screen-row">
                  <button
                    type="button"
                    disabled={running !== undefined || screen.disabled === true}
                    data-testid={`magic-screen-${screen.id}`}
                    onClick={() => void run(screen)}
                  >
                    {running === screen.id ? 'Open…' : screen.label}
                  </button>
                  <span className="hint">{screen.sentence}</span>
                  {outcome && (
                    <span
                      className={`screen-outcome ${outcome.state}`}
                      data-testid={`magic-screen-${screen.id}-result`}
                      data-state={outcome.state}
                    >
                      {outcome.words}
                    </span>
                  )}
                </li>
              )
            })}
          </ul>
        </Panel>
      ))}
    </div>
  )
}
