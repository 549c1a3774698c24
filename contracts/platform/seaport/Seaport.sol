// SPDX-License-Identifier: MIT
// The order book's seaport, as Immutable publishes it in @imtbl/contracts:
// this file only names the contracts for forge (FOUNDRY_PROFILE=seaport),
// which builds them and everything they import. seaport-core 1.5.0 pins
// solc 0.8.17, hence a profile of its own.
pragma solidity 0.8.17;

import {ImmutableSeaport} from "@imtbl/contracts/contracts/trading/seaport/ImmutableSeaport.sol";
import {ConduitController} from "seaport-core/src/conduit/ConduitController.sol";
