import * as Published from '@imtbl/generated-clients'
import * as PublishedImx from 'imtbl-generated-clients-2.14.0'
import { describe, expect, test } from 'vitest'
import * as Entry from './index.js'

describe('embedded-wallets/api', () => {
  test('exports', () => {
    expect(Object.keys(Entry).sort()).toMatchInlineSnapshot(`
      [
        "ActivityType",
        "ApiErrors",
        "AttributeDisplayType",
        "CancellationType",
        "ChainType",
        "CollectionContractType",
        "ConfirmationMethod",
        "ExchangeChainType",
        "ExchangeProvider",
        "FeeType",
        "ImxApiClients",
        "ItemType",
        "MetadataFieldType",
        "MintRequestStatus",
        "MultiRollupApiClients",
        "OperatorAllowlistStatus",
        "OrderStatus",
        "OrderType",
        "OrganisationTier",
        "QueuedStatus",
        "RampDirection",
        "Severity",
        "TokenType",
        "TransactionEvaluationStatus",
        "VerificationRequestStatus",
        "VerificationStatus",
        "createConfig",
        "imx",
        "imxApiConfig",
        "mr",
        "multiRollupConfig",
      ]
    `)
    expect(Object.keys(Entry.ApiErrors).sort()).toMatchInlineSnapshot(`
      [
        "ApiError",
        "ApiErrorCode",
        "AuthenticationError",
        "BasePathError",
        "ConflictError",
        "InternalServerError",
        "NotImplementedError",
        "RequiredError",
        "ResourceNotFoundError",
        "TooManyRequestsError",
        "UnauthorisedRequestError",
        "ValidationError",
        "apiErrorStatus",
        "fromResponse",
      ]
    `)
  })

  test('behavior: embedded-wallets/api/mr and /imx are the namespaces, module for module', async () => {
    const mr = await import('./mr/index.js')
    const imx = await import('./imx/index.js')
    expect({ ...mr }).toEqual({ ...Entry.mr })
    expect({ ...imx }).toEqual({ ...Entry.imx })
    expect(mr.NftsApi).toBe(Entry.mr.NftsApi)
  })

  test('exports: the namespaces', () => {
    expect({
      mr: Object.keys(Entry.mr).sort(),
      imx: Object.keys(Entry.imx).sort(),
    }).toMatchInlineSnapshot(`
      {
        "imx": [
          "AssetsApi",
          "BalancesApi",
          "CollectionsApi",
          "Configuration",
          "CreateExchangeAndURLAPIRequestProviderEnum",
          "CreateExchangeAndURLAPIRequestTypeEnum",
          "CreateProjectGroupRequestChainTypeEnum",
          "DepositsApi",
          "EncodeAssetRequestTokenTypeEnum",
          "EncodingApi",
          "ExchangesApi",
          "FeeTokenTypeEnum",
          "GetCurrenciesNFTCheckoutPrimaryProviderEnum",
          "GetExchangesDirectionEnum",
          "GetExchangesOrderByEnum",
          "GetExchangesProviderEnum",
          "GetExchangesStatusEnum",
          "GetMetadataRefreshResponseStatusEnum",
          "GetNftPrimaryTransactionsOrderByEnum",
          "GetNftPrimaryTransactionsProviderEnum",
          "GetNftPrimaryTransactionsStatusEnum",
          "ListAssetsOrderByEnum",
          "ListAssetsStatusEnum",
          "ListCollectionsOrderByEnum",
          "ListMintsOrderByEnum",
          "ListOrdersV3OrderByEnum",
          "ListOrdersV3StatusEnum",
          "ListTokensOrderByEnum",
          "ListTradesV3OrderByEnum",
          "ListTransfersOrderByEnum",
          "ListTransfersStatusEnum",
          "MetadataApi",
          "MetadataRefreshExcludingSummaryStatusEnum",
          "MetadataRefreshesApi",
          "MetadataSchemaRequestTypeEnum",
          "MintsApi",
          "NftCheckoutPrimaryApi",
          "OrdersApi",
          "ProjectsApi",
          "TokensApi",
          "TradesApi",
          "TransfersApi",
          "UsersApi",
          "WithdrawalsApi",
        ],
        "mr": [
          "APIError400AllOfCodeEnum",
          "APIError401AllOfCodeEnum",
          "APIError403AllOfCodeEnum",
          "APIError404AllOfCodeEnum",
          "APIError409AllOfCodeEnum",
          "APIError422AllOfCodeEnum",
          "APIError429AllOfCodeEnum",
          "APIError500AllOfCodeEnum",
          "APIError501AllOfCodeEnum",
          "APIError503AllOfCodeEnum",
          "APIError504AllOfCodeEnum",
          "ActiveOrderStatusNameEnum",
          "ActivitiesApi",
          "ActivityNFTContractTypeEnum",
          "ActivityTokenContractTypeEnum",
          "ActivityType",
          "AssetVerificationStatus",
          "AssetsApi",
          "CancelledOrderStatusCancellationTypeEnum",
          "CancelledOrderStatusNameEnum",
          "ChainsApi",
          "CollectionContractType",
          "CollectionsApi",
          "Configuration",
          "CraftingApi",
          "ERC1155CollectionItemTypeEnum",
          "ERC1155ItemTypeEnum",
          "ERC20ApproveMetadataTransactionTypeEnum",
          "ERC20ItemTypeEnum",
          "ERC20TransferFromMetadataTransactionTypeEnum",
          "ERC20TransferMetadataTransactionTypeEnum",
          "ERC721ApproveMetadataTransactionTypeEnum",
          "ERC721CollectionItemTypeEnum",
          "ERC721ItemTypeEnum",
          "ERC721SafeTransferFromBatchMetadataTransactionTypeEnum",
          "ERC721TransferFromMetadataTransactionTypeEnum",
          "EpochID",
          "ExpiredOrderStatusNameEnum",
          "FailedOrderCancellationReasonCodeEnum",
          "FeeTypeEnum",
          "FeedItemBonusGemsAllOf1TypeEnum",
          "FeedItemBonusGemsAllOf2TypeEnum",
          "FeedItemCTAAllOf1TypeEnum",
          "FeedItemCTAAllOf2TypeEnum",
          "FeedItemDailyGemsAllOf1TypeEnum",
          "FeedItemDailyGemsAllOf2TypeEnum",
          "FeedItemFollowGameAllOf1TypeEnum",
          "FeedItemFollowGameAllOf2TypeEnum",
          "FeedItemLandingAllOf1TypeEnum",
          "FeedItemLandingAllOf2TypeEnum",
          "FeedItemPinToHomeAllOf1TypeEnum",
          "FeedItemPinToHomeAllOf2TypeEnum",
          "FeedItemQuizAllOf1TypeEnum",
          "FeedItemQuizAllOf2TypeEnum",
          "FeedItemReferralAllOf1TypeEnum",
          "FeedItemReferralAllOf2TypeEnum",
          "FeedItemRewardAllOf1TypeEnum",
          "FeedItemRewardAllOf2TypeEnum",
          "FeedItemSignInAllOf1TypeEnum",
          "FeedItemSignInAllOf2TypeEnum",
          "FeedItemSocialQuestAllOf1TypeEnum",
          "FeedItemSocialQuestAllOf2TypeEnum",
          "FeedItemVideoAllOf1TypeEnum",
          "FeedItemVideoAllOf2TypeEnum",
          "FeedItemsApi",
          "FeedItemsStatusRequestActionEnum",
          "FilledOrderStatusNameEnum",
          "GamefiApi",
          "GetFeedItemsStatusEnum",
          "GetInternalAssetsPathEnum",
          "GetInternalPresignUploadContentTypeEnum",
          "GetInternalPresignUploadPathEnum",
          "GetTransactionByIDChainTypeEnum",
          "GuardianApi",
          "HealthApi",
          "ImmutableVerificationStatusEnum",
          "InactiveOrderStatusNameEnum",
          "ListBidsSortByEnum",
          "ListBidsSortDirectionEnum",
          "ListCollectionBidsSortByEnum",
          "ListCollectionBidsSortDirectionEnum",
          "ListListingsBuyItemTypeEnum",
          "ListListingsSortByEnum",
          "ListListingsSortDirectionEnum",
          "ListMetadataBidsSortByEnum",
          "ListMetadataBidsSortDirectionEnum",
          "ListTradesSortByEnum",
          "ListTradesSortDirectionEnum",
          "ListTraitBidsSortByEnum",
          "ListTraitBidsSortDirectionEnum",
          "MarketPriceERC20TokenTypeEnum",
          "MarketPriceFeesTypeEnum",
          "MarketPriceNativeTokenTypeEnum",
          "MarketplaceContractType",
          "MessageEvaluationResponseConfirmationMethodEnum",
          "MetadataApi",
          "MetadataSearchApi",
          "MintRequestStatus",
          "NFTContractType",
          "NFTMetadataAttributeDisplayTypeEnum",
          "NFTSetApprovalForAllMetadataTransactionTypeEnum",
          "NativeItemTypeEnum",
          "NftOwnersApi",
          "NftsApi",
          "OperatorAllowlistStatus",
          "OrderStatusName",
          "OrderTypeEnum",
          "OrdersApi",
          "OrganisationTier",
          "PassportApi",
          "PassportProfileApi",
          "PendingOrderStatusNameEnum",
          "PhoneNumberOTPRequestChannelEnum",
          "PricingApi",
          "ProtocolDataOrderTypeEnum",
          "SaleFeeTypeEnum",
          "SeaportCreateListingMetadataTypedDataTypeEnum",
          "SeaportERC1155CollectionItemTypeEnum",
          "SeaportERC1155ItemTypeEnum",
          "SeaportERC20ItemTypeEnum",
          "SeaportERC721CollectionItemTypeEnum",
          "SeaportERC721ItemTypeEnum",
          "SeaportFeeTypeEnum",
          "SeaportFulfillAvailableAdvancedOrdersMetadataTransactionTypeEnum",
          "SeaportNativeItemTypeEnum",
          "SearchStacksSortByEnum",
          "Severity",
          "TokenContractType",
          "TokensApi",
          "TransactionApprovalRequestChainTypeEnum",
          "TransactionEvaluationResponseConfirmationMethodEnum",
          "UnknownMetadataTransactionTypeEnum",
          "UnknownTypedDataMetadataTypedDataTypeEnum",
          "ValidationStatus",
          "VerificationRequestContractType",
          "VerificationRequestStatus",
          "ZkEvmTransactionEvaluationRequestChainTypeEnum",
        ],
      }
    `)
  })

  test('behavior: the published top-level names are here but the two clients of specs not generated here', () => {
    // BlockchainData and MagicTeeApiClients come from other specs (the
    // blockchain-data spec and the key-custody TEE's), not from the
    // platform's two.
    const published = [
      ...Object.keys(Published),
      ...Object.keys(PublishedImx),
    ].filter((name) => !['BlockchainData', 'MagicTeeApiClients'].includes(name))
    expect(published.filter((name) => !(name in Entry))).toEqual([])
  })

  test('behavior: MultiRollupApiClients and ImxApiClients have the published fields, each the published class on the published configuration', () => {
    const indexer = Entry.createConfig({ basePath: 'https://indexer.example' })
    const orderBook = Entry.createConfig({ basePath: 'https://orders.example' })
    const passport = Entry.createConfig({
      basePath: 'https://passport.example',
    })
    const config = { indexer, orderBook, passport }
    const ours = new Entry.MultiRollupApiClients(config)
    const theirs = new Published.MultiRollupApiClients(
      Published.multiRollupConfig.getSandbox(),
    )
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort())
    // The name under which a namespace exports an instance's class.
    const classOf = (namespace: object, value: unknown) =>
      Object.entries(namespace).find(
        ([, type]) => type === (value as object).constructor,
      )?.[0]
    for (const [field, client] of Object.entries(theirs))
      if (field !== 'config')
        expect(classOf(Entry.mr, ours[field as keyof typeof ours]), field).toBe(
          classOf(Published.mr, client),
        )
    expect(ours.config).toBe(config)
    const basePathOf = (api: object) =>
      (api as unknown as { basePath: string }).basePath
    expect(basePathOf(ours.nftsApi)).toBe('https://indexer.example')
    expect(basePathOf(ours.ordersApi)).toBe('https://orders.example')
    expect(basePathOf(ours.guardianApi)).toBe('https://passport.example')

    const imx = new Entry.ImxApiClients(Entry.imxApiConfig.getSandbox())
    const theirImx = new PublishedImx.ImxApiClients(
      PublishedImx.imxApiConfig.getSandbox(),
    )
    expect(Object.keys(imx).sort()).toEqual(Object.keys(theirImx).sort())
    expect(basePathOf(imx.assetApi)).toBe('https://api.sandbox.x.immutable.com')
  })

  test('behavior: the hosted configurations are the published ones', () => {
    const base = (config: { basePath?: string | undefined }) => config.basePath
    for (const environment of ['getProduction', 'getSandbox'] as const) {
      const ours = Entry.multiRollupConfig[environment]()
      const theirs = Published.multiRollupConfig[environment]()
      for (const backend of ['indexer', 'orderBook', 'passport'] as const)
        expect(base(ours[backend])).toBe(base(theirs[backend]))
      expect(base(Entry.imxApiConfig[environment]())).toBe(
        base(PublishedImx.imxApiConfig[environment]()),
      )
    }
  })
})
