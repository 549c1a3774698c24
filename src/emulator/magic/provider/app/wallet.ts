/**
 * The iframe's wallet screens: wallet home, address, balances, send tokens,
 * on-ramp (emulated), NFTs, NFT checkout, reveal key, settings and the
 * user-info consent. Every one closes with its `close` button (or answers
 * `cancel` where protocol.ts says so).
 */
import type { Render, ScreenContext } from './auth.js'
import {
  actions,
  button,
  card,
  errorLine,
  formatUnits,
  h,
  paragraph,
  value,
} from './dom.js'

function close(ctx: ScreenContext, eventType = 'close') {
  return () => ctx.answer(eventType)
}

function eth(wei: string | undefined): string {
  return `${formatUnits(wei ?? '0', 18)} ETH`
}

/** `wallet`: the wallet home (address and ETH balance). */
export const wallet: Render<'wallet'> = (data, ctx) =>
  card(
    'Wallet',
    [
      value('Address', data.address ?? '', 'wallet-address'),
      value('Balance', eth(data.balance), 'wallet-balance'),
      data.chainId === undefined
        ? undefined
        : paragraph(`Chain ${data.chainId}`, 'wallet-chain'),
    ],
    close(ctx),
  )

/** `address`: the address, with a copy button. */
export const address: Render<'address'> = (data, ctx) => {
  const text = data.address ?? ''
  const copy = button('Copy', 'copy-address', () => {
    navigator.clipboard?.writeText(text).then(
      () => {
        copy.textContent = 'Copied'
      },
      () => {
        copy.textContent = 'Copy failed'
      },
    )
  })
  return card(
    'Your address',
    [value('Address', text, 'wallet-address'), actions([copy])],
    close(ctx),
  )
}

/** `balances`: ETH and token balances read from the chain. */
export const balances: Render<'balances'> = (data, ctx) => {
  const rows = (data.balances ?? []).map((entry) => {
    const symbol = String(entry?.symbol ?? '?')
    const decimals = Number.isInteger(entry?.decimals) ? entry.decimals : 18
    return h('li', { class: 'row' }, [
      h('span', { class: 'label', text: symbol }),
      h('code', {
        testid: `balances-${symbol.toLowerCase()}`,
        text: formatUnits(String(entry?.balance ?? '0'), decimals),
      }),
    ])
  })
  return card(
    'Balances',
    [
      value('Address', data.address ?? '', 'wallet-address'),
      rows.length
        ? h('ul', { class: 'rows', testid: 'balances-list' }, rows)
        : paragraph('No balances.', 'balances-empty'),
    ],
    close(ctx),
  )
}

/** `send-tokens`: recipient and ETH amount; shows the error or the hash. */
export const sendTokens: Render<'send-tokens'> = (data, ctx) => {
  const to = h('input', {
    testid: 'send-tokens-to',
    attrs: { name: 'to', placeholder: '0x…', autocomplete: 'off' },
  })
  const amount = h('input', {
    testid: 'send-tokens-amount',
    attrs: { name: 'amount', placeholder: '0.01', inputmode: 'decimal' },
  })
  const form = h('form', { class: 'form' }, [
    h('label', { text: 'To' }, [to]),
    h('label', { text: 'Amount (ETH)' }, [amount]),
    h('button', {
      class: 'button primary',
      testid: 'send-tokens-submit',
      text: 'Send',
      attrs: { type: 'submit' },
    }),
  ])
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (!to.value.trim() || !amount.value.trim()) return
    ctx.answer('send-tokens', {
      to: to.value.trim(),
      amount: amount.value.trim(),
    })
  })
  return card(
    'Send ETH',
    [
      value('From', data.address ?? '', 'wallet-address'),
      value('Balance', eth(data.balance), 'wallet-balance'),
      errorLine(data.error, 'send-tokens-error'),
      data.hash ? value('Sent', data.hash, 'send-tokens-hash') : undefined,
      form,
    ],
    close(ctx),
  )
}

/** `onramp`: the fiat on-ramp, which the emulator only pretends to be. */
export const onramp: Render<'onramp'> = (data, ctx) =>
  card(
    'Buy crypto (emulated)',
    [
      paragraph(
        'This on-ramp is emulated: no payment is taken and no funds move. ' +
          'Fund local accounts from Anvil instead.',
        'onramp-emulated',
      ),
      value('Address', data.address ?? '', 'wallet-address'),
    ],
    close(ctx),
  )

/** `nfts`: the user's NFTs among the emulator's test tokens. */
export const nfts: Render<'nfts'> = (data, ctx) => {
  const items = (data.nfts ?? []).map((nft) =>
    h('li', { class: 'row', testid: 'nft-item' }, [
      h('span', {
        class: 'label',
        text: `${String(nft?.standard ?? 'NFT')} #${String(nft?.tokenId ?? '?')}`,
      }),
      h('code', { text: String(nft?.contractAddress ?? '') }),
      h('span', { text: `× ${String(nft?.quantity ?? '1')}` }),
    ]),
  )
  return card(
    'NFTs',
    [
      items.length
        ? h('ul', { class: 'rows', testid: 'nfts-list' }, items)
        : paragraph('You have no NFTs yet.', 'nfts-empty'),
    ],
    close(ctx),
  )
}

const checkoutTitles: Record<string, string> = {
  purchase: 'Buy NFT',
  checkout: 'NFT checkout',
  transfer: 'Transfer NFT',
}

/** `nft-checkout`: confirm a purchase, checkout or transfer. */
export const nftCheckout: Render<'nft-checkout'> = (data, ctx) =>
  card(
    checkoutTitles[data.action ?? ''] ?? 'NFT checkout',
    [
      value('Contract', data.contractAddress ?? '', 'nft-contract'),
      value('Token', data.tokenId ?? '', 'nft-token-id'),
      value('Quantity', data.quantity ?? '1', 'nft-quantity'),
      data.recipient
        ? value('Recipient', data.recipient, 'nft-recipient')
        : undefined,
      data.wallet ? value('Paid by', data.wallet, 'nft-wallet') : undefined,
      actions([
        data.wallet
          ? button(
              'Disconnect wallet',
              'nft-checkout-disconnect',
              close(ctx, 'disconnect'),
            )
          : undefined,
        button('Cancel', 'cancel', close(ctx)),
        button(
          'Confirm',
          'nft-checkout-confirm',
          close(ctx, 'confirm'),
          'primary',
        ),
      ]),
    ],
    close(ctx),
  )

/** `reveal-key`: the private key, hidden until asked for. */
export const revealKey: Render<'reveal-key'> = (data, ctx) => {
  const key = h('code', { testid: 'private-key', class: 'secret' })
  const reveal = button('Reveal', 'reveal-key', () => {
    key.textContent = data.privateKey ?? ''
    reveal.remove()
  })
  return card(
    'Your private key',
    [
      paragraph('Never share it. Anyone with it controls your wallet.'),
      key,
      actions([reveal]),
    ],
    close(ctx),
  )
}

/** `settings`: the account's settings, each opening its own screen. */
export const settings: Render<'settings'> = (data, ctx) => {
  const open = (page: string) => () => ctx.answer('open-page', page)
  return card(
    'Settings',
    [
      value('Email', data.email ?? '—', 'settings-email'),
      value('Recovery phone', data.phoneNumber ?? '—', 'settings-phone'),
      value(
        'Two-factor',
        data.isMfaEnabled ? 'On' : 'Off',
        'settings-mfa-state',
      ),
      actions([
        button('Update email', 'settings-update-email', open('update-email')),
        button('Two-factor', 'settings-mfa', open('mfa')),
        button('Recovery phone', 'settings-recovery', open('recovery')),
      ]),
    ],
    close(ctx),
  )
}

/** `user-info`: consent to share the email with the app. */
export const userInfo: Render<'user-info'> = (data, ctx) =>
  card(
    'Share your email?',
    [
      paragraph('This app asks for your email address.'),
      value('Email', data.email ?? '', 'user-info-email'),
      actions([
        button('Cancel', 'cancel', close(ctx, 'cancel')),
        button('Share', 'user-info-share', close(ctx, 'share'), 'primary'),
      ]),
    ],
    close(ctx, 'cancel'),
  )
