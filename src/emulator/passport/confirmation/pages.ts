/**
 * The confirmation pages of the emulated passport domain: plain
 * server-rendered HTML, one nonce'd inline stylesheet and script each, no
 * external assets. Each page is usable by a person (the playground) and by
 * tests (every part carries a `data-testid`).
 */
import { formatEther, formatUnits } from 'viem'
import {
  eventType,
  messages,
  windowName,
} from '../../../passport/wire/confirmation.js'
import type { StarkExTransaction, StarkExType } from '../../guardian.js'
import { escapeHtml } from '../identity/html.js'

/** `data-testid`s of the pages' parts. */
export const testIds = {
  loading: 'confirmation-loading',
  unavailable: 'confirmation-unavailable',
  close: 'confirmation-close',
  details: 'confirmation-details',
  transaction: 'confirmation-transaction',
  callKind: 'confirmation-call-kind',
  delegateCall: 'confirmation-delegate-call',
  target: 'confirmation-target',
  value: 'confirmation-value',
  data: 'confirmation-data',
  message: 'confirmation-message',
  typedData: 'confirmation-typed-data',
  starkEx: 'confirmation-starkex',
  starkExType: 'confirmation-starkex-type',
  starkExItem: 'confirmation-starkex-item',
  approve: 'confirmation-approve',
  reject: 'confirmation-reject',
  status: 'confirmation-status',
  error: 'confirmation-error',
} as const

/** Where the pages post the player's decision (same origin only). */
export const settlePath = '/transaction-confirmation/api/settle'

/**
 * The pages' own call to read their verdict's state (`{ id, secret }` →
 * `{ id, state }`): a verdict settled elsewhere (the emulator's UI) ends the
 * page's wait as the player's own click would.
 */
export const statePath = '/transaction-confirmation/api/state'

/** How often a waiting page reads its verdict's state, ms. */
export const stateReadMs = 1000

/** What the page script knows: which protocol prefix, and how to settle. */
export type PageState =
  | {
      prefix: 'transaction' | 'message'
      id: string
      secret: string
      error?: undefined
    }
  | { prefix: 'transaction' | 'message'; error: string }

const styles = `body{font:15px/1.5 system-ui,sans-serif;background:#0d0d0d;color:#f3f3f3;margin:0}
main{max-width:420px;margin:0 auto;padding:24px}h1{font-size:1.3em;margin:0 0 16px}
dl{margin:0 0 12px;padding:12px;border-radius:8px;background:#1f1f1f}dt{color:#b6b6b6;font-size:.85em}
dd{margin:0 0 8px;word-break:break-all;font-family:ui-monospace,monospace}
pre{white-space:pre-wrap;word-break:break-all;background:#1f1f1f;padding:12px;border-radius:8px;max-height:320px;overflow:auto}
.actions{display:flex;gap:12px;margin-top:16px}button{flex:1;padding:12px;font-size:1em;border-radius:24px;cursor:pointer;border:2px solid #f3f3f3}
button.approve{background:#f3f3f3;color:#0d0d0d}button.reject{background:none;color:#f3f3f3}button:disabled{opacity:.5;cursor:default}
.error{color:#ff8a9c}.muted{color:#b6b6b6}`

/**
 * A full page: the title is the popup's name; `script` runs with `nonce`
 * (the only script the page's CSP allows).
 */
export function renderPage(options: {
  nonce: string
  body: string
  script?: string | undefined
  state?: PageState | undefined
}): string {
  const { nonce, body, script, state } = options
  const data =
    state === undefined
      ? ''
      : // A data block is never run; `<` is escaped so the JSON cannot end
        // the element early.
        `<script type="application/json" id="confirmation-state">${JSON.stringify(state).replaceAll('<', '\\u003c')}</script>\n`
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(windowName)}</title>
<style nonce="${nonce}">${styles}</style>
</head>
<body>
<main>
${body}
</main>
${data}${script === undefined ? '' : `<script nonce="${nonce}">${script}</script>`}
</body>
</html>`
}

/** The loading page, shown while the wallet asks the guardian. */
export function loadingBody(): string {
  return `<h1>${escapeHtml(windowName)}</h1>
<p data-testid="${testIds.loading}" role="status">Loading…</p>`
}

/** The unavailable page, with a Close button. */
export function unavailableBody(): string {
  return `<h1>Service unavailable</h1>
<p data-testid="${testIds.unavailable}">The transaction service is unavailable right now. Please try again later.</p>
<div class="actions"><button type="button" class="reject" data-testid="${testIds.close}">Close</button></div>`
}

/** Closes the window from its Close button (a popup may close itself). */
export const unavailableScript = `document.querySelector('[data-testid="${testIds.close}"]').addEventListener('click',()=>window.close())`

/** The error page of an unknown or unusable request. */
export function errorBody(message: string): string {
  return `<h1>${escapeHtml(windowName)}</h1>
<p class="error" role="alert" data-testid="${testIds.error}">${escapeHtml(message)}</p>
<p class="muted" data-testid="${testIds.status}">Return to the game and try again.</p>`
}

/**
 * A transaction's page: each meta-transaction's kind, target, value and
 * data. A delegateCall is named as one, with a warning above the calls: it
 * runs the target's code as the wallet itself, so it can move anything the
 * wallet holds, whatever its value and data say.
 */
export function transactionBody(payload: unknown): string {
  const calls = metaTransactionsOf(payload)
  const warning = calls?.some((call) => call.delegateCall)
    ? `<p class="error" role="alert" data-testid="${testIds.delegateCall}">This transaction makes a delegateCall. Approve it only if you trust the contract with your whole wallet.</p>\n`
    : ''
  const details =
    calls === undefined
      ? `<pre data-testid="${testIds.data}">${escapeHtml(json(payload))}</pre>`
      : calls
          .map(
            (call) => `<dl data-testid="${testIds.transaction}">
<dt>Kind</dt><dd data-testid="${testIds.callKind}"${call.delegateCall ? ' class="error"' : ''}>${call.delegateCall ? "delegateCall: this contract's code runs as your wallet, with everything it holds" : 'Call'}</dd>
<dt>To</dt><dd data-testid="${testIds.target}">${escapeHtml(call.target)}</dd>
<dt>Value</dt><dd data-testid="${testIds.value}">${escapeHtml(call.value)}</dd>
<dt>Data</dt><dd data-testid="${testIds.data}">${escapeHtml(call.data)}</dd>
</dl>`,
          )
          .join('\n')
  return decisionBody('Approve this transaction?', warning + details)
}

/** A message's page: the text, or the typed data. */
export function messageBody(kind: 'message' | 'erc191', payload: unknown) {
  const details =
    kind === 'erc191'
      ? `<pre data-testid="${testIds.message}">${escapeHtml(typeof payload === 'string' ? payload : json(payload))}</pre>`
      : `<pre data-testid="${testIds.typedData}">${escapeHtml(json(payload))}</pre>`
  return decisionBody('Sign this message?', details)
}

/** A StarkEx request type in the player's words. */
const starkExTypeNames: Record<StarkExType, string> = {
  transfer: 'Transfer',
  batchNftTransfer: 'Transfer of NFTs',
  order: 'Create an order',
  cancelOrder: 'Cancel an order',
  trade: 'Trade: fill an order',
}

/**
 * A StarkEx request's page: what it does, then what the exchange described
 * (its `details`: the signable request as the published SDK sent it), each
 * field in words: tokens by kind and contract, amounts in the token's base
 * units (with ETH also in ether), parties, orders and fees. Fields the page
 * does not know are shown under their own name.
 */
export function starkExBody(transaction: StarkExTransaction): string {
  const rows = [
    row('Request', starkExTypeNames[transaction.type], testIds.starkExType),
    ...detailRows(transaction.details),
  ]
  const items = requestsOf(transaction.details)
  const list = items
    .map(
      (item, index) =>
        `<dl data-testid="${testIds.starkExItem}">
${row(`NFT ${index + 1} of ${items.length}`, amountText(item.amount, item.token))}
${row('To', text(item.receiver))}
</dl>`,
    )
    .join('\n')
  return decisionBody(
    `${starkExTypeNames[transaction.type]}: confirm this transaction?`,
    `<dl data-testid="${testIds.starkEx}">
${rows.join('\n')}
</dl>${list === '' ? '' : `\n${list}`}`,
    { approve: 'Confirm' },
  )
}

/** One `dt`/`dd` pair, escaped. */
function row(label: string, value: string, testId?: string): string {
  return `<dt>${escapeHtml(label)}</dt><dd${testId ? ` data-testid="${testId}"` : ''}>${escapeHtml(value)}</dd>`
}

/**
 * The rows of a request's details, by the field names of the exchange's
 * signable requests; a batch's requests are listed apart.
 */
function detailRows(details: unknown): string[] {
  if (!isObject(details))
    return details === undefined ? [] : [row('Details', json(details))]
  const rows: string[] = []
  const used = new Set(['signable_requests'])
  const take = (key: string) => {
    used.add(key)
    return details[key]
  }
  for (const key of ['sender', 'sender_ether_key', 'user'])
    if (details[key] !== undefined) rows.push(row('From', text(take(key))))
  if (details.receiver !== undefined)
    rows.push(row('To', text(take('receiver'))))
  if (details.amount !== undefined || details.token !== undefined)
    rows.push(row('Amount', amountText(take('amount'), take('token'))))
  if (details.amount_sell !== undefined || details.token_sell !== undefined)
    rows.push(
      row('You sell', amountText(take('amount_sell'), take('token_sell'))),
    )
  if (details.amount_buy !== undefined || details.token_buy !== undefined)
    rows.push(row('You buy', amountText(take('amount_buy'), take('token_buy'))))
  if (details.order_id !== undefined)
    rows.push(row('Order', `#${text(take('order_id'))}`))
  if (details.fees !== undefined) rows.push(row('Fees', feesText(take('fees'))))
  if (details.expiration_timestamp !== undefined)
    rows.push(row('Expires', text(take('expiration_timestamp'))))
  for (const [key, value] of Object.entries(details))
    if (!used.has(key)) rows.push(row(labelOf(key), text(value)))
  return rows
}

/** The requests of a batch transfer (`signable_requests`). */
function requestsOf(
  details: unknown,
): { amount: unknown; token: unknown; receiver: unknown }[] {
  const list = isObject(details) ? details.signable_requests : undefined
  if (!Array.isArray(list)) return []
  return list.map((item: unknown) => {
    const request = isObject(item) ? item : {}
    return {
      amount: request.amount,
      token: request.token,
      receiver: request.receiver,
    }
  })
}

/**
 * An amount of a token, in words: an NFT by its id and collection, ETH in
 * wei and ether, an ERC-20 in base units of its contract (and in whole
 * tokens when its decimals are known).
 */
function amountText(amount: unknown, token: unknown): string {
  const base = text(amount ?? '')
  const kind = isObject(token) ? token.type : undefined
  const data = isObject(token) && isObject(token.data) ? token.data : {}
  if (kind === 'ERC721') {
    const nft = `NFT #${text(data.token_id)} of collection ${text(data.token_address)}`
    return amount === undefined || base === '1' ? nft : `${base} × ${nft}`
  }
  if (kind === 'ETH') return `${base} wei (${units(base, 18)} ETH)`
  if (kind === 'ERC20') {
    const decimals = data.decimals
    const whole =
      typeof decimals === 'number' &&
      Number.isSafeInteger(decimals) &&
      decimals >= 0 &&
      decimals <= 255
        ? ` (${units(base, decimals)} tokens)`
        : ''
    return `${base} base units of ERC-20 ${text(data.token_address)}${whole}`
  }
  return token === undefined ? base : `${base} of ${json(token)}`
}

/** A base-unit amount in whole units, or '?' when it is not a whole number. */
function units(amount: string, decimals: number): string {
  return /^\d{1,78}$/.test(amount) ? formatUnits(BigInt(amount), decimals) : '?'
}

/** An order's fees: each recipient and percentage. */
function feesText(fees: unknown): string {
  if (!Array.isArray(fees)) return text(fees)
  if (fees.length === 0) return 'None'
  return fees
    .map((fee: unknown) =>
      isObject(fee) && fee.address !== undefined
        ? `${text(fee.fee_percentage ?? fee.percentage)}% to ${text(fee.address)}`
        : text(fee),
    )
    .join('; ')
}

/** A field name as a label: `min_amount` → 'Min amount'. */
function labelOf(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * A value as text: strings and numbers as they are, a missing one as '?',
 * the rest as JSON.
 */
function text(value: unknown): string {
  if (value === undefined || value === null) return '?'
  return typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'bigint'
    ? String(value)
    : json(value)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function decisionBody(
  question: string,
  details: string,
  labels: { approve?: string } = {},
): string {
  return `<h1>${escapeHtml(windowName)}</h1>
<p>${escapeHtml(question)}</p>
<section data-testid="${testIds.details}">
${details}
</section>
<div class="actions">
<button type="button" class="reject" data-decision="reject" data-testid="${testIds.reject}" disabled>Reject</button>
<button type="button" class="approve" data-decision="approve" data-testid="${testIds.approve}" disabled>${escapeHtml(labels.approve ?? 'Approve')}</button>
</div>
<p class="muted" role="status" data-testid="${testIds.status}">Waiting for the game…</p>`
}

/**
 * The protocol side of the page. It announces itself to its opener, waits
 * for the opener's `confirmation_start` (from that window only), then
 * enables the buttons (or, for an unusable request, answers the error). A
 * decision is settled with this page's secret through a same-origin POST,
 * and only then told to the opener. While it waits, it reads its verdict's
 * state each second (same rules): one settled elsewhere, from the
 * emulator's UI, is told to the opener as the click would have been.
 *
 * Target origin '*': the page cannot know the dApp's origin (the published
 * protocol never tells it), and what it posts is only the protocol's
 * ready/confirmed/rejected/error signal, never the secret or any detail of
 * the request. The answer that counts is the guardian's verdict, which the
 * relayer checks before it co-signs; a window that merely learns "confirmed"
 * gains nothing, and one that forges it only fools itself.
 */
export const decisionScript = `(()=>{
const state=JSON.parse(document.getElementById('confirmation-state').textContent)
const opener=window.opener
const status=document.querySelector('[data-testid="${testIds.status}"]')
const buttons=[...document.querySelectorAll('button[data-decision]')]
const post=(messageType)=>{if(opener)opener.postMessage({eventType:'${eventType}',messageType},'*')}
let started=false
addEventListener('message',(event)=>{
if(!opener||event.source!==opener||started)return
const m=event.data
if(!m||typeof m!=='object'||m.eventType!=='${eventType}'||m.messageType!=='${messages.start}')return
started=true
if(state.error){post(state.prefix+'_error');return}
for(const b of buttons)b.disabled=false
status.textContent='Waiting for your decision.'
})
let decided=false
// Settled elsewhere (the emulator's UI): answer the wallet as a click would.
const watch=state.id?setInterval(async()=>{
if(!started||decided)return
try{
const response=await fetch('${statePath}',{method:'POST',credentials:'same-origin',headers:{'content-type':'application/json'},body:JSON.stringify({id:state.id,secret:state.secret})})
const now=response.ok?(await response.json()).state:'pending'
if(now==='pending'||decided)return
decided=true
clearInterval(watch)
for(const b of buttons)b.disabled=true
status.textContent=now==='allowed'?'Approved elsewhere.':'Rejected elsewhere.'
post(state.prefix+(now==='allowed'?'_confirmed':'_rejected'))
}catch{}
},${stateReadMs}):undefined
for(const button of buttons)button.addEventListener('click',async()=>{
if(decided)return
decided=true
clearInterval(watch)
for(const b of buttons)b.disabled=true
const decision=button.dataset.decision
status.textContent='Sending…'
try{
const response=await fetch('${settlePath}',{method:'POST',credentials:'same-origin',headers:{'content-type':'application/json'},body:JSON.stringify({id:state.id,secret:state.secret,decision})})
if(!response.ok)throw new Error('settle answered '+response.status)
status.textContent=decision==='approve'?'Approved.':'Rejected.'
post(state.prefix+(decision==='approve'?'_confirmed':'_rejected'))
}catch(error){
status.textContent='Something went wrong: '+error.message
post(state.prefix+'_error')
}
})
post('${messages.ready}')
})()`

/** A meta-transaction as shown. */
type ShownCall = {
  delegateCall: boolean
  target: string
  value: string
  data: string
}

/**
 * The meta-transactions of an evaluated transaction (the guardian's
 * evaluation body, `transactionData.metaTransactions`), or undefined when
 * the payload has another shape (then it is shown as JSON).
 */
function metaTransactionsOf(payload: unknown): ShownCall[] | undefined {
  const data = (payload as { transactionData?: unknown } | null)
    ?.transactionData as { metaTransactions?: unknown } | undefined
  const list = data?.metaTransactions
  if (!Array.isArray(list)) return undefined
  return list.map((entry: unknown) => {
    const call = (entry ?? {}) as Record<string, unknown>
    return {
      delegateCall: call.delegateCall === true,
      target: String(call.target ?? ''),
      value: valueText(call.value),
      data: String(call.data ?? '0x'),
    }
  })
}

/** Wei as a decimal string, followed by its ETH amount when it parses. */
function valueText(value: unknown): string {
  const text = String(value ?? '0')
  try {
    return `${text} wei (${formatEther(BigInt(text))} ETH)`
  } catch {
    return text
  }
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}
