/**
 * Known values of the Sequence v1 codec for one game wallet. The unit tests
 * check that the codec produces them; the chain tests check that the
 * deployed contracts agree (the factory deploys the wallet at `wallet`, the
 * wallet computes `subDigest` and accepts the signatures). The contracts
 * are at the addresses the emulator's deployer gets on a fresh Anvil, and
 * both keys are public test keys: never use them for real funds.
 */
import type { Address } from 'viem'

export const vectors = {
  /** Anvil's chain id. */
  chainId: 31337,
  /** The first CREATE addresses of Anvil account 0, in the emulator's deploy order. */
  contracts: {
    factory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    mainModule: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    guestModule: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
    sequenceUtils: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
    coSigner: '0x8A791620dd6260079BF849Dc5567aDC3F2FdC318',
  },
  /** The player's custody key (the example key of the web3.js documentation; public). */
  custodyKey:
    '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
  custody: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
  /** The co-signing key: Anvil account 5, which the co-signer contract accepts (public). */
  coSignerKey:
    '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  /** {custody w1, co-signer w1}, threshold 2. */
  imageHash:
    '0xff2cbed81de75be850db19ec3aadc5d2c5bd984a227858cffae29bd3d1c33a66',
  wallet: '0x1efBD7100CB4Aa95023cEF0ADb9c2969B0fa3b70',
  /** One call with calldata to an account without code, which succeeds. */
  transactions: [
    {
      delegateCall: false,
      revertOnError: true,
      gasLimit: 0n,
      target: '0x000000000000000000000000000000000000dEaD',
      value: 0n,
      data: '0x1234',
    },
  ],
  /** Nonce 0 of space 1 (session activity's). */
  nonce: 2n ** 96n,
  transactionsDigest:
    '0x170fbc8f9a0e5cd7650bad89b2bfbc55a528da2d09db1c71f8a2fb355d76b889',
  subDigest:
    '0xe9e0da2783c526f4c81952cf2c5ab791eb53909119b39a4bcca5ab4c4179f3cb',
  /** What the client sends: threshold 1, the custody key's part only. */
  transactionSignature:
    '0x00010001189b2138d9c085a42411265093e68eaeea84e47383401e118de9c8569192200f6dd84af37cb9d213fb883b856d50bcd8ea2bbe217e47264928ec8ea217a879741b02',
  /** What the relayer submits: the custody part, then the co-signer's (the lower address first). */
  executeSignature:
    '0x00020001189b2138d9c085a42411265093e68eaeea84e47383401e118de9c8569192200f6dd84af37cb9d213fb883b856d50bcd8ea2bbe217e47264928ec8ea217a879741b0202018a791620dd6260079bf849dc5567adc3f2fdc31800438fb94307d42c16dad255b28f7bee60f3ccec1322031861bcb74183e1feec17d15925b6a8cfd8373408f591bb651e99f96710d4816f320d286ad6efaf7116846f1b0203',
  /** keccak256 of `execute(transactions, nonce, executeSignature)` calldata. */
  executeCalldataHash:
    '0xac7f7630c2adc0b97dd7509c8e063a700488062efe8e316066c5c1999027d1ff',
  /** keccak256 of the guest module's deploy-and-execute calldata for the same. */
  deployAndExecuteHash:
    '0x57d2651b76845b0ffbaffcee452d67a3a4cb740aeeb3831b8765c6c2206b66e3',
  message: 'embedded-wallets: one Sequence v1 codec',
  /** The wallet's 2-of-2 ERC-1271 signature of `message` (personal_sign). */
  messageSignature:
    '0x00020001822f91122579d5c1007b26e8627680097f6c3190227191d4a05eec6bd41f44e37a4e8788015fcd4b296d3ddb25284d4c1ba97177cd92bd37beffe4c6e656439a1b0202018a791620dd6260079bf849dc5567adc3f2fdc3180043c691f9644cf7ed1bda74d5246f7226ec762660b6a2bf4642aa22e71cca7019245c14bdc92caf06c161ee4ac66ad8d693cd2f84047dc1cd7afff7ecd2e78530691b0203',
  /** The same, wrapped per ERC-6492 for the wallet before it is deployed. */
  erc6492Signature:
    '0x0000000000000000000000005fbdb2315678afecb367f032d93f642f64180aa3000000000000000000000000000000000000000000000000000000000000006000000000000000000000000000000000000000000000000000000000000000e0000000000000000000000000000000000000000000000000000000000000004432c02a14000000000000000000000000e7f1725e7734ce288f8367e1bb143e90bb3f0512ff2cbed81de75be850db19ec3aadc5d2c5bd984a227858cffae29bd3d1c33a660000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000a100020001822f91122579d5c1007b26e8627680097f6c3190227191d4a05eec6bd41f44e37a4e8788015fcd4b296d3ddb25284d4c1ba97177cd92bd37beffe4c6e656439a1b0202018a791620dd6260079bf849dc5567adc3f2fdc3180043c691f9644cf7ed1bda74d5246f7226ec762660b6a2bf4642aa22e71cca7019245c14bdc92caf06c161ee4ac66ad8d693cd2f84047dc1cd7afff7ecd2e78530691b0203000000000000000000000000000000000000000000000000000000000000006492649264926492649264926492649264926492649264926492649264926492',
} as const satisfies {
  contracts: Record<string, Address>
  custody: Address
  wallet: Address
  [key: string]: unknown
}
