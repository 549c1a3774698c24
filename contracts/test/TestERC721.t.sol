// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {ERC721Holder} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Holder.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {TestERC721} from "../src/TestERC721.sol";

/// A contract that accepts ERC-721 tokens.
contract Receiver721 is ERC721Holder {}

/// A contract without `onERC721Received`.
contract NotAReceiver {}

contract TestERC721Test is Test {
    TestERC721 internal nft;
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");

    function setUp() public {
        nft = new TestERC721();
    }

    function test_mintReturnsSequentialIds() public {
        assertEq(nft.mint(alice), 1);
        vm.prank(bob);
        assertEq(nft.mint(bob), 2);
        assertEq(nft.ownerOf(1), alice);
        assertEq(nft.ownerOf(2), bob);
        assertEq(nft.balanceOf(alice), 1);
        assertEq(nft.nextTokenId(), 3);
    }

    function test_tokenURI() public {
        uint256 id = nft.mint(alice);
        string memory json = '{"name":"Test NFT 1","description":"Local test NFT 1"}';
        assertEq(nft.tokenURI(id), string.concat("data:application/json;base64,", Base64.encode(bytes(json))));
    }

    function test_transferFrom() public {
        uint256 id = nft.mint(alice);
        vm.prank(alice);
        nft.transferFrom(alice, bob, id);
        assertEq(nft.ownerOf(id), bob);
    }

    function test_approvedOperatorSafeTransfersToReceiver() public {
        Receiver721 receiver = new Receiver721();
        uint256 id = nft.mint(alice);
        vm.prank(alice);
        nft.approve(bob, id);
        assertEq(nft.getApproved(id), bob);
        vm.prank(bob);
        nft.safeTransferFrom(alice, address(receiver), id);
        assertEq(nft.ownerOf(id), address(receiver));
        assertEq(nft.getApproved(id), address(0));
    }

    function test_RevertWhen_safeTransferToNonReceiver() public {
        NotAReceiver target = new NotAReceiver();
        uint256 id = nft.mint(alice);
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721InvalidReceiver.selector, address(target)));
        vm.prank(alice);
        nft.safeTransferFrom(alice, address(target), id);
    }

    function test_RevertWhen_mintToNonReceiver() public {
        NotAReceiver target = new NotAReceiver();
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721InvalidReceiver.selector, address(target)));
        nft.mint(address(target));
    }

    function test_RevertWhen_transferByStranger() public {
        uint256 id = nft.mint(alice);
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721InsufficientApproval.selector, bob, id));
        vm.prank(bob);
        nft.transferFrom(alice, bob, id);
    }

    function test_RevertWhen_tokenURIOfUnmintedId() public {
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721NonexistentToken.selector, 7));
        nft.tokenURI(7);
    }

    function testFuzz_mintManyCountsBalance(uint8 count) public {
        for (uint256 i = 0; i < count; i++) {
            assertEq(nft.mint(alice), i + 1);
        }
        assertEq(nft.balanceOf(alice), count);
        assertEq(nft.nextTokenId(), uint256(count) + 1);
    }

    function test_mintIdMintsTheChosenId() public {
        nft.mintId(alice, 42);
        assertEq(nft.ownerOf(42), alice);
        assertEq(nft.nextTokenId(), 1);
    }

    function test_RevertWhen_mintIdOfAMintedId() public {
        nft.mintId(alice, 2);
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721InvalidSender.selector, address(0)));
        nft.mintId(bob, 2);
    }

    function test_mintPassesOverChosenIds() public {
        nft.mintId(bob, 2);
        nft.mintId(bob, 3);
        assertEq(nft.mint(alice), 1);
        assertEq(nft.mint(alice), 4);
        assertEq(nft.ownerOf(4), alice);
        assertEq(nft.nextTokenId(), 5);
    }
}
