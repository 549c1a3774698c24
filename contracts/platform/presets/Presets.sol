// SPDX-License-Identifier: MIT
// The signed zone, the token presets the minting API mints on, and the
// operator allowlist those presets check, as Immutable publishes them in
// @imtbl/contracts: this file only names the contracts for forge
// (FOUNDRY_PROFILE=presets). Their sources allow solc 0.8.19 to 0.8.27.
pragma solidity 0.8.27;

import {ImmutableSignedZoneV2} from
    "@imtbl/contracts/contracts/trading/seaport/zones/immutable-signed-zone/v2/ImmutableSignedZoneV2.sol";
import {ImmutableERC721V2} from "@imtbl/contracts/contracts/token/erc721/preset/ImmutableERC721V2.sol";
import {ImmutableERC1155} from "@imtbl/contracts/contracts/token/erc1155/preset/ImmutableERC1155.sol";
import {OperatorAllowlistUpgradeable} from "@imtbl/contracts/contracts/allowlist/OperatorAllowlistUpgradeable.sol";
import {ERC1967Proxy} from "openzeppelin-contracts-4/proxy/ERC1967/ERC1967Proxy.sol";
