/**
 * Tokens as the exchange's signable requests take them (the published
 * toolkit's `convertToSignableToken`): ERC721 with its id and contract,
 * ERC20 with its contract, ETH with 18 decimals.
 */
import type { Token } from '../wire/starkex.js'
import type { AnyToken } from './types.js'

/** The exchange's token descriptor of `token`. */
export function signableToken(token: AnyToken): Token {
  switch (token.type) {
    case 'ERC721':
      return {
        type: 'ERC721',
        data: { token_id: token.tokenId, token_address: token.tokenAddress },
      }
    case 'ERC20':
      return { type: 'ERC20', data: { token_address: token.tokenAddress } }
    default:
      return { type: 'ETH', data: { decimals: 18 } }
  }
}

/** The amount sent for a token: an ERC721 is always `'1'`. */
export function amountOf(token: AnyToken & { amount?: string }): string {
  return token.type === 'ERC721' ? '1' : String(token.amount)
}
