// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {ERC721Burnable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Burnable.sol";
import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {ERC1155Burnable} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155Burnable.sol";
import {ERC2981} from "@openzeppelin/contracts/token/common/ERC2981.sol";

/// @notice A burnable ERC-20 with 6 decimals that anyone may mint (indexer tests).
contract FixtureToken is ERC20Burnable {
    constructor() ERC20("Fixture Coin", "FIX") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}

/// @notice A burnable ERC-721 whose token URIs are set at mint, with a
/// contract URI and an ERC-2981 royalty (indexer tests).
contract FixtureCollection is ERC721Burnable, ERC2981 {
    mapping(uint256 => string) private uris;
    string private contractUri;

    constructor(string memory name_, string memory symbol_, string memory contractUri_) ERC721(name_, symbol_) {
        contractUri = contractUri_;
    }

    function mint(address to, uint256 id, string calldata uri) external {
        uris[id] = uri;
        _mint(to, id);
    }

    function tokenURI(uint256 id) public view override returns (string memory) {
        _requireOwned(id);
        return uris[id];
    }

    function contractURI() external view returns (string memory) {
        return contractUri;
    }

    function setRoyalty(address receiver, uint96 basisPoints) external {
        _setDefaultRoyalty(receiver, basisPoints);
    }

    function supportsInterface(bytes4 id) public view override(ERC721, ERC2981) returns (bool) {
        return super.supportsInterface(id);
    }
}

/// @notice A burnable ERC-1155 with one URI for every id (`{id}` allowed),
/// minting one id or a batch (indexer tests).
contract FixtureItems is ERC1155Burnable {
    constructor(string memory uri_) ERC1155(uri_) {}

    function mint(address to, uint256 id, uint256 amount) external {
        _mint(to, id, amount, "");
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external {
        _mintBatch(to, ids, amounts, "");
    }
}

/// @notice A marketplace that settles an order the way Seaport does and
/// reports it with Seaport's `OrderFulfilled` event: the offer moves from
/// the offerer to the caller, each consideration item from the caller to
/// its recipient (native currency out of `msg.value`). It checks no
/// signature: it only stands in for Seaport in indexer tests.
contract FixtureMarket {
    enum ItemType {
        NATIVE,
        ERC20,
        ERC721,
        ERC1155,
        ERC721_WITH_CRITERIA,
        ERC1155_WITH_CRITERIA
    }

    struct SpentItem {
        ItemType itemType;
        address token;
        uint256 identifier;
        uint256 amount;
    }

    struct ReceivedItem {
        ItemType itemType;
        address token;
        uint256 identifier;
        uint256 amount;
        address payable recipient;
    }

    event OrderFulfilled(
        bytes32 orderHash,
        address indexed offerer,
        address indexed zone,
        address recipient,
        SpentItem[] offer,
        ReceivedItem[] consideration
    );

    function fulfil(
        bytes32 orderHash,
        address offerer,
        SpentItem[] calldata offer,
        ReceivedItem[] calldata consideration
    ) external payable {
        for (uint256 i = 0; i < offer.length; i++) {
            SpentItem calldata item = offer[i];
            move(item.itemType, item.token, item.identifier, item.amount, offerer, msg.sender);
        }
        for (uint256 i = 0; i < consideration.length; i++) {
            ReceivedItem calldata item = consideration[i];
            move(item.itemType, item.token, item.identifier, item.amount, msg.sender, item.recipient);
        }
        emit OrderFulfilled(orderHash, offerer, address(0), msg.sender, offer, consideration);
    }

    function move(ItemType itemType, address token, uint256 id, uint256 amount, address from, address to) private {
        if (itemType == ItemType.NATIVE) {
            (bool ok,) = to.call{value: amount}("");
            require(ok, "native payment failed");
        } else if (itemType == ItemType.ERC20) {
            require(IERC20(token).transferFrom(from, to, amount), "ERC-20 payment failed");
        } else if (itemType == ItemType.ERC721) {
            IERC721(token).transferFrom(from, to, id);
        } else {
            IERC1155(token).safeTransferFrom(from, to, id, amount, "");
        }
    }
}
