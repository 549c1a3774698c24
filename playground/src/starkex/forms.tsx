import type { IMXProvider } from 'embedded-wallets/passport'
import { type FormEvent, useState } from 'react'
import { isAddress } from 'viem'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { shortHex } from '../ui/format.js'
import {
  checkEthAmount,
  declined,
  ethBalance,
  ethText,
  listingOf,
  nftName,
  type Outcome,
} from './exchange.js'
import type { Reads } from './useStarkEx.js'

/** The `value` of an NFT option: its collection and id. */
const nftKey = (tokenAddress: string, tokenId: string) =>
  `${tokenAddress.toLowerCase()}:${tokenId}`

/** The player's NFTs that no active order of theirs sells. */
function unlistedNfts(reads: Reads | undefined) {
  if (!reads) return []
  const listed = new Set(
    reads.active.flatMap((order) => {
      const listing = reads.mine.has(order.order_id) && listingOf(order)
      return listing ? [nftKey(listing.tokenAddress, listing.tokenId)] : []
    }),
  )
  return reads.assets.filter(
    (asset) => !listed.has(nftKey(asset.token_address, asset.token_id)),
  )
}

/**
 * Sends ETH or an NFT to another StarkEx player (`imx.transfer`), the
 * amount checked against the ETH balance before anything is asked.
 */
export function TransferForm(props: {
  info: Info
  imx: IMXProvider
  reads: Reads | undefined
  onDone(): Promise<void>
}) {
  const { info, imx, reads, onDone } = props
  const { report, clear } = useFailures('starkex')
  const [asset, setAsset] = useState('ETH')
  const [amount, setAmount] = useState('0.1')
  const [receiver, setReceiver] = useState('')
  const [sending, setSending] = useState(false)
  const [done, setDone] = useState<Outcome>()
  const nfts = unlistedNfts(reads)
  const nft = nfts.find(
    (item) => nftKey(item.token_address, item.token_id) === asset,
  )
  const balance = reads ? ethBalance(reads.balances) : undefined
  const amountCheck =
    asset === 'ETH' ? checkEthAmount(amount, balance) : undefined
  const receiverProblem =
    receiver.trim() === ''
      ? undefined
      : isAddress(receiver.trim(), { strict: false })
        ? undefined
        : 'Enter the receiver as a 0x address (40 hex digits).'
  const problem =
    receiverProblem ??
    (amountCheck && !amountCheck.ok && amount.trim() !== ''
      ? amountCheck.reason
      : undefined) ??
    (asset !== 'ETH' && !nft ? 'Choose one of your NFTs.' : undefined)
  const ready =
    reads !== undefined &&
    problem === undefined &&
    receiver.trim() !== '' &&
    (asset === 'ETH' ? amountCheck?.ok === true : nft !== undefined)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!ready) return
    clear()
    setDone(undefined)
    setSending(true)
    const to = receiver.trim()
    try {
      if (asset === 'ETH' && amountCheck?.ok) {
        const result = await imx.transfer({
          type: 'ETH',
          amount: amountCheck.wei.toString(),
          receiver: to,
        })
        setDone({
          text: `Sent ${ethText(amountCheck.wei)} to ${shortHex(to)} (transfer ${result.transfer_id}).`,
          declined: false,
        })
      } else if (nft) {
        const result = await imx.transfer({
          type: 'ERC721',
          tokenAddress: nft.token_address,
          tokenId: nft.token_id,
          receiver: to,
        })
        setAsset('ETH')
        setDone({
          text: `Sent ${nftName(info, nft)} to ${shortHex(to)} (transfer ${result.transfer_id}).`,
          declined: false,
        })
      }
      await onDone()
    } catch (error) {
      if (declined(error))
        setDone({
          text: 'You declined the transfer in the wallet: nothing was sent.',
          declined: true,
        })
      else report('Transferring', error)
    } finally {
      setSending(false)
    }
  }

  return (
    <form
      className="starkex-card stack"
      onSubmit={submit}
      data-testid="starkex-transfer"
    >
      <h3>Transfer</h3>
      <div className="field">
        <label htmlFor="starkex-transfer-asset">What</label>
        <select
          id="starkex-transfer-asset"
          value={asset}
          onChange={(event) => setAsset(event.target.value)}
          data-testid="starkex-transfer-asset"
        >
          <option value="ETH">
            ETH{balance !== undefined ? ` (you hold ${ethText(balance)})` : ''}
          </option>
          {nfts.map((item) => (
            <option
              key={nftKey(item.token_address, item.token_id)}
              value={nftKey(item.token_address, item.token_id)}
            >
              {nftName(info, item)}
            </option>
          ))}
        </select>
      </div>
      {asset === 'ETH' && (
        <div className="field">
          <label htmlFor="starkex-transfer-amount">Amount (ETH)</label>
          <input
            id="starkex-transfer-amount"
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            aria-invalid={amountCheck !== undefined && !amountCheck.ok}
            data-testid="starkex-transfer-amount"
          />
        </div>
      )}
      <div className="field">
        <label htmlFor="starkex-transfer-receiver">
          To (the receiver's StarkEx address)
        </label>
        <input
          id="starkex-transfer-receiver"
          placeholder="0x…"
          spellCheck={false}
          value={receiver}
          onChange={(event) => setReceiver(event.target.value)}
          aria-invalid={receiverProblem !== undefined}
          data-testid="starkex-transfer-receiver"
        />
      </div>
      {problem && (
        <p className="error" data-testid="starkex-transfer-problem">
          {problem}
        </p>
      )}
      <div className="row">
        <button
          type="submit"
          disabled={!ready || sending}
          data-testid="starkex-transfer-submit"
        >
          {sending ? 'Sending…' : 'Send'}
        </button>
      </div>
      {done && (
        <p
          className={done.declined ? 'muted' : 'ok'}
          data-testid="starkex-transfer-result"
          data-declined={done.declined}
        >
          {done.text}
        </p>
      )}
    </form>
  )
}

/** Lists one of the player's NFTs for sale at a price in ETH (`imx.createOrder`). */
export function SellForm(props: {
  info: Info
  imx: IMXProvider
  reads: Reads | undefined
  onDone(): Promise<void>
}) {
  const { info, imx, reads, onDone } = props
  const { report, clear } = useFailures('starkex')
  const [chosen, setChosen] = useState('')
  const [price, setPrice] = useState('0.5')
  const [listing, setListing] = useState(false)
  const [done, setDone] = useState<Outcome>()
  const nfts = unlistedNfts(reads)
  const nft =
    nfts.find((item) => nftKey(item.token_address, item.token_id) === chosen) ??
    nfts[0]
  // A price is what the buyer pays: no balance of the seller limits it.
  const priceCheck = checkEthAmount(price, undefined)
  const problem =
    !priceCheck.ok && price.trim() !== '' ? priceCheck.reason : undefined
  const ready = nft !== undefined && priceCheck.ok

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!ready || !nft || !priceCheck.ok) return
    clear()
    setDone(undefined)
    setListing(true)
    try {
      const order = await imx.createOrder({
        sell: {
          type: 'ERC721',
          tokenAddress: nft.token_address,
          tokenId: nft.token_id,
        },
        buy: { type: 'ETH', amount: priceCheck.wei.toString() },
      })
      setChosen('')
      setDone({
        text: `Listed ${nftName(info, nft)} for ${ethText(priceCheck.wei)} (order ${order.order_id}).`,
        declined: false,
      })
      await onDone()
    } catch (error) {
      if (declined(error))
        setDone({
          text: 'You declined the order in the wallet: nothing was listed.',
          declined: true,
        })
      else report('Listing the NFT', error)
    } finally {
      setListing(false)
    }
  }

  return (
    <form
      className="starkex-card stack"
      onSubmit={submit}
      data-testid="starkex-sell"
    >
      <h3>Sell an NFT</h3>
      {reads && nfts.length === 0 ? (
        <p className="muted" data-testid="starkex-sell-none">
          {reads.assets.length === 0
            ? 'You hold no NFT to sell: mint test assets to get one.'
            : 'Every NFT you hold is listed already.'}
        </p>
      ) : (
        <>
          <div className="field">
            <label htmlFor="starkex-sell-nft">NFT</label>
            <select
              id="starkex-sell-nft"
              value={nft ? nftKey(nft.token_address, nft.token_id) : ''}
              onChange={(event) => setChosen(event.target.value)}
              data-testid="starkex-sell-nft"
            >
              {nfts.map((item) => (
                <option
                  key={nftKey(item.token_address, item.token_id)}
                  value={nftKey(item.token_address, item.token_id)}
                >
                  {nftName(info, item)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="starkex-sell-price">Price (ETH)</label>
            <input
              id="starkex-sell-price"
              inputMode="decimal"
              value={price}
              onChange={(event) => setPrice(event.target.value)}
              aria-invalid={problem !== undefined}
              data-testid="starkex-sell-price"
            />
          </div>
          {problem && (
            <p className="error" data-testid="starkex-sell-problem">
              {problem}
            </p>
          )}
          <div className="row">
            <button
              type="submit"
              disabled={!ready || listing}
              data-testid="starkex-sell-submit"
            >
              {listing ? 'Listing…' : 'List for sale'}
            </button>
          </div>
        </>
      )}
      {done && (
        <p
          className={done.declined ? 'muted' : 'ok'}
          data-testid="starkex-sell-result"
          data-declined={done.declined}
        >
          {done.text}
        </p>
      )}
    </form>
  )
}
