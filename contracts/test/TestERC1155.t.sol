// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {IERC1155Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {ERC1155Holder} from "@openzeppelin/contracts/token/ERC1155/utils/ERC1155Holder.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {TestERC1155} from "../src/TestERC1155.sol";

/// A contract that accepts ERC-1155 tokens.
contract Receiver1155 is ERC1155Holder {}

/// A contract without `onERC1155Received`.
contract NotAReceiver1155 {}

contract TestERC1155Test is Test {
    TestERC1155 internal items;
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");

    function setUp() public {
        items = new TestERC1155();
    }

    function test_anyoneCanMint() public {
        vm.prank(bob);
        items.mint(alice, 7, 30, "");
        assertEq(items.balanceOf(alice, 7), 30);
        assertEq(items.balanceOf(alice, 8), 0);
    }

    function test_uri() public view {
        string memory json = '{"name":"Test Item 42","description":"Local test item 42"}';
        assertEq(items.uri(42), string.concat("data:application/json;base64,", Base64.encode(bytes(json))));
    }

    function test_safeTransferFrom() public {
        items.mint(alice, 1, 10, "");
        vm.prank(alice);
        items.safeTransferFrom(alice, bob, 1, 4, "");
        assertEq(items.balanceOf(alice, 1), 6);
        assertEq(items.balanceOf(bob, 1), 4);
    }

    function test_operatorSafeBatchTransfersToReceiver() public {
        Receiver1155 receiver = new Receiver1155();
        items.mint(alice, 1, 10, "");
        items.mint(alice, 2, 20, "");
        vm.prank(alice);
        items.setApprovalForAll(bob, true);
        assertTrue(items.isApprovedForAll(alice, bob));

        uint256[] memory ids = new uint256[](2);
        ids[0] = 1;
        ids[1] = 2;
        uint256[] memory amounts = new uint256[](2);
        amounts[0] = 3;
        amounts[1] = 5;
        vm.prank(bob);
        items.safeBatchTransferFrom(alice, address(receiver), ids, amounts, "");
        assertEq(items.balanceOf(address(receiver), 1), 3);
        assertEq(items.balanceOf(address(receiver), 2), 5);
        assertEq(items.balanceOf(alice, 2), 15);
    }

    function test_RevertWhen_mintToNonReceiver() public {
        NotAReceiver1155 target = new NotAReceiver1155();
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, address(target)));
        items.mint(address(target), 1, 1, "");
    }

    function test_RevertWhen_transferWithoutApproval() public {
        items.mint(alice, 1, 10, "");
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, bob, alice));
        vm.prank(bob);
        items.safeTransferFrom(alice, bob, 1, 1, "");
    }

    function test_RevertWhen_transferExceedsBalance() public {
        items.mint(alice, 1, 2, "");
        vm.expectRevert(abi.encodeWithSelector(IERC1155Errors.ERC1155InsufficientBalance.selector, alice, 2, 3, 1));
        vm.prank(alice);
        items.safeTransferFrom(alice, bob, 1, 3, "");
    }

    function testFuzz_mintAndTransfer(uint256 id, uint128 minted, uint128 sent) public {
        sent = uint128(bound(sent, 0, minted));
        items.mint(alice, id, minted, "");
        vm.prank(alice);
        items.safeTransferFrom(alice, bob, id, sent, "");
        assertEq(items.balanceOf(alice, id), uint256(minted) - sent);
        assertEq(items.balanceOf(bob, id), sent);
    }
}
