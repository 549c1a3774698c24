import { describe, expect, test } from 'vitest'
import * as Enumerations from './enumerations.js'
import * as Mr from './mr/enums.generated.js'

/** The enumerations and record statuses of the game wallet's spec, value for value. */
const spec = {
  ActivityType: ['mint', 'burn', 'transfer', 'sale', 'deposit', 'withdrawal'],
  VerificationStatus: ['verified', 'unverified', 'spam', 'inactive'],
  CollectionContractType: ['ERC721', 'ERC1155'],
  TokenType: ['ETH', 'ERC20', 'ERC721'],
  FeeType: ['ROYALTY', 'MAKER_ECOSYSTEM', 'TAKER_ECOSYSTEM', 'PROTOCOL'],
  OrderType: ['LISTING', 'BID', 'COLLECTION_BID'],
  ItemType: [
    'NATIVE',
    'ERC20',
    'ERC721',
    'ERC1155',
    'ERC721_COLLECTION',
    'ERC1155_COLLECTION',
  ],
  AttributeDisplayType: ['number', 'boost_percentage', 'boost_number', 'date'],
  OrganisationTier: ['common', 'uncommon', 'rare', 'epic', 'legendary'],
  Severity: ['malicious', 'benign', 'warning', 'unknown', 'info'],
  ConfirmationMethod: ['otp', 'web'],
  ChainType: ['starkex', 'evm'],
  ExchangeChainType: ['starkex', 'zkevm'],
  ExchangeProvider: ['moonpay', 'layerswap'],
  RampDirection: ['onramp', 'offramp'],
  MetadataFieldType: ['enum', 'text', 'boolean', 'continuous', 'discrete'],
  OrderStatus: [
    'PENDING',
    'ACTIVE',
    'INACTIVE',
    'FILLED',
    'EXPIRED',
    'CANCELLED',
  ],
  CancellationType: ['ON_CHAIN', 'OFF_CHAIN', 'UNDERFUNDED'],
  MintRequestStatus: ['pending', 'succeeded', 'failed'],
  OperatorAllowlistStatus: [
    'requested',
    'approved',
    'rejected',
    'removed',
    'added',
  ],
  VerificationRequestStatus: ['completed', 'pending'],
  TransactionEvaluationStatus: ['success', 'error', 'simulation_failed'],
  QueuedStatus: ['queued', 'in_progress', 'completed'],
} as const

describe('enumerations', () => {
  test('default: every set of the spec, with exactly its values, in its order', () => {
    expect(
      Object.fromEntries(
        Object.entries(Enumerations).map(([name, set]) => [
          name,
          Object.values(set),
        ]),
      ),
    ).toEqual(spec)
  })

  test('behavior: member names as the published clients spell them', () => {
    expect(Enumerations.OrderStatus.Cancelled).toBe('CANCELLED')
    expect(Enumerations.ItemType.Erc1155Collection).toBe('ERC1155_COLLECTION')
    expect(Enumerations.AttributeDisplayType.BoostPercentage).toBe(
      'boost_percentage',
    )
    expect(Enumerations.TransactionEvaluationStatus.SimulationFailed).toBe(
      'simulation_failed',
    )
    expect(Enumerations.QueuedStatus.InProgress).toBe('in_progress')
  })

  test('behavior: the sets the spec declares are its generated enumerations (regenerating keeps them in step)', () => {
    expect(Enumerations.ActivityType).toBe(Mr.ActivityType)
    expect(Enumerations.OrderStatus).toBe(Mr.OrderStatusName)
    expect(Enumerations.MintRequestStatus).toBe(Mr.MintRequestStatus)
    expect(Enumerations.CancellationType).toBe(
      Mr.CancelledOrderStatusCancellationTypeEnum,
    )
  })

  test('behavior: the item types are every item type of the order book schemas', () => {
    const declared = new Set(
      Object.entries(Mr)
        .filter(([name]) => /^(ERC\w+|Native)ItemTypeEnum$/.test(name))
        .flatMap(([, set]) => Object.values(set)),
    )
    expect([...declared].sort()).toEqual(
      Object.values(Enumerations.ItemType).sort(),
    )
  })

  test('behavior: the order types are those of the order book schema it uses', () => {
    for (const type of Object.values(Enumerations.OrderType))
      expect(Object.values(Mr.OrderTypeEnum)).toContain(type)
  })
})
