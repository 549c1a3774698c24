// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title TestERC20
/// @notice A faucet token for local chains: 18 decimals, anyone may mint.
/// @dev Never deploy this on a network where the token should have value.
contract TestERC20 is ERC20 {
    constructor() ERC20("Test Token", "TEST") {}

    /// @notice Mints `amount` base units to `to`. Open to every caller.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
