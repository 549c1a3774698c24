// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @title TestERC1155
/// @notice A multi-token for local chains: anyone may mint any id.
/// @dev `uri(id)` is a per-id on-chain `data:` URI (no `{id}` placeholder).
contract TestERC1155 is ERC1155 {
    using Strings for uint256;

    constructor() ERC1155("") {}

    /// @notice Mints `amount` of `id` to `to` (with the ERC-1155 receiver check).
    function mint(address to, uint256 id, uint256 amount, bytes calldata data) external {
        _mint(to, id, amount, data);
    }

    /// @notice `data:application/json;base64,` metadata naming the item.
    function uri(uint256 id) public pure override returns (string memory) {
        string memory name = id.toString();
        bytes memory json =
            abi.encodePacked('{"name":"Test Item ', name, '","description":"Local test item ', name, '"}');
        return string.concat("data:application/json;base64,", Base64.encode(json));
    }
}
