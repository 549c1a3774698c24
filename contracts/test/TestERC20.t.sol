// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {TestERC20} from "../src/TestERC20.sol";

contract TestERC20Test is Test {
    TestERC20 internal token;
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");

    function setUp() public {
        token = new TestERC20();
    }

    function test_metadata() public view {
        assertEq(token.name(), "Test Token");
        assertEq(token.symbol(), "TEST");
        assertEq(token.decimals(), 18);
        assertEq(token.totalSupply(), 0);
    }

    function test_anyoneCanMint() public {
        vm.prank(bob);
        token.mint(alice, 5 ether);
        assertEq(token.balanceOf(alice), 5 ether);
        assertEq(token.totalSupply(), 5 ether);
    }

    function test_transfer() public {
        token.mint(alice, 10 ether);
        vm.prank(alice);
        assertTrue(token.transfer(bob, 3 ether));
        assertEq(token.balanceOf(alice), 7 ether);
        assertEq(token.balanceOf(bob), 3 ether);
    }

    function test_approveAndTransferFrom() public {
        token.mint(alice, 10 ether);
        vm.prank(alice);
        token.approve(bob, 4 ether);
        assertEq(token.allowance(alice, bob), 4 ether);
        vm.prank(bob);
        assertTrue(token.transferFrom(alice, bob, 4 ether));
        assertEq(token.balanceOf(bob), 4 ether);
        assertEq(token.allowance(alice, bob), 0);
    }

    function test_RevertWhen_transferExceedsBalance() public {
        token.mint(alice, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InsufficientBalance.selector, alice, 1 ether, 2 ether));
        vm.prank(alice);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(bob, 2 ether);
    }

    function test_RevertWhen_transferFromExceedsAllowance() public {
        token.mint(alice, 10 ether);
        vm.prank(alice);
        token.approve(bob, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, bob, 1 ether, 2 ether));
        vm.prank(bob);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transferFrom(alice, bob, 2 ether);
    }

    function test_RevertWhen_mintToZeroAddress() public {
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InvalidReceiver.selector, address(0)));
        token.mint(address(0), 1);
    }

    function testFuzz_mintThenTransfer(address to, uint128 minted, uint128 sent) public {
        vm.assume(to != address(0) && to != alice);
        sent = uint128(bound(sent, 0, minted));
        token.mint(alice, minted);
        vm.prank(alice);
        assertTrue(token.transfer(to, sent));
        assertEq(token.balanceOf(alice), uint256(minted) - sent);
        assertEq(token.balanceOf(to), sent);
        assertEq(token.totalSupply(), minted);
    }
}
