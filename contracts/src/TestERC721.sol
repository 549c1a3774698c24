// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @title TestERC721
/// @notice An NFT for local chains: anyone may mint the next id (1, 2, ...)
/// or an id of their choice.
/// @dev Metadata is an on-chain `data:` URI, so it works without a network.
contract TestERC721 is ERC721 {
    using Strings for uint256;

    /// @notice The id the next `mint` assigns.
    uint256 public nextTokenId = 1;

    constructor() ERC721("Test NFT", "TNFT") {}

    /// @notice Mints the next id to `to` (with the ERC-721 receiver check),
    /// passing over ids already minted by `mintId`.
    /// @return tokenId The id that was minted.
    function mint(address to) external returns (uint256 tokenId) {
        tokenId = nextTokenId++;
        while (_ownerOf(tokenId) != address(0)) tokenId = nextTokenId++;
        _safeMint(to, tokenId);
    }

    /// @notice Mints `tokenId` to `to` (with the ERC-721 receiver check), so a
    /// test can hold the id its fixtures name. An id minted already reverts
    /// with `ERC721InvalidSender(address(0))`, as OpenZeppelin's `_mint` does.
    function mintId(address to, uint256 tokenId) external {
        _safeMint(to, tokenId);
    }

    /// @notice `data:application/json;base64,` metadata naming the token.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        string memory id = tokenId.toString();
        bytes memory json = abi.encodePacked('{"name":"Test NFT ', id, '","description":"Local test NFT ', id, '"}');
        return string.concat("data:application/json;base64,", Base64.encode(json));
    }
}
