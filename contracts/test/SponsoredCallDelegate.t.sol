// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {SponsoredCallDelegate} from "../src/SponsoredCallDelegate.sol";
import {TestERC20} from "../src/TestERC20.sol";
import {TestERC721} from "../src/TestERC721.sol";
import {TestERC1155} from "../src/TestERC1155.sol";

/// @dev Records who called it and with how much wei; reverts on demand.
contract Recorder {
    address public lastSender;
    uint256 public lastValue;

    function record() external payable {
        lastSender = msg.sender;
        lastValue = msg.value;
    }

    function fail() external pure {
        revert("nope");
    }
}

contract SponsoredCallDelegateTest is Test {
    SponsoredCallDelegate internal implementation;
    Recorder internal recorder;
    TestERC20 internal token;
    uint256 internal alicePk = 0xA11CE;
    address internal alice = vm.addr(alicePk);
    address internal sponsor = makeAddr("sponsor");
    address internal bob = makeAddr("bob");
    SponsoredCallDelegate internal account;

    function setUp() public {
        implementation = new SponsoredCallDelegate();
        recorder = new Recorder();
        token = new TestERC20();
        vm.deal(alice, 10 ether);
        vm.signAndAttachDelegation(address(implementation), alicePk);
        account = SponsoredCallDelegate(payable(alice));
    }

    function one(address to, uint256 value, bytes memory data)
        internal
        pure
        returns (SponsoredCallDelegate.Call[] memory calls)
    {
        calls = new SponsoredCallDelegate.Call[](1);
        calls[0] = SponsoredCallDelegate.Call(to, value, data);
    }

    /// @dev Signs `Execute` for `alice`'s account with `pk`, encoding the
    ///      EIP-712 struct independently of the contract.
    function sign(uint256 pk, SponsoredCallDelegate.Call[] memory calls, uint256 nonce, uint256 deadline)
        internal
        view
        returns (bytes memory)
    {
        bytes32[] memory hashes = new bytes32[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            hashes[i] = keccak256(
                abi.encode(
                    keccak256("Call(address to,uint256 value,bytes data)"),
                    calls[i].to,
                    calls[i].value,
                    keccak256(calls[i].data)
                )
            );
        }
        bytes32 structHash = keccak256(
            abi.encode(
                keccak256(
                    "Execute(Call[] calls,uint256 nonce,uint256 deadline)Call(address to,uint256 value,bytes data)"
                ),
                keccak256(abi.encodePacked(hashes)),
                nonce,
                deadline
            )
        );
        bytes32 domain = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("SponsoredCallDelegate"),
                keccak256("1"),
                block.chainid,
                alice
            )
        );
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(pk, keccak256(abi.encodePacked("\x19\x01", domain, structHash)));
        return abi.encodePacked(r, s, v);
    }

    function test_delegationCodePointsAtTheImplementationAndTheDomainAtTheAccount() public view {
        assertEq(alice.code, abi.encodePacked(hex"ef0100", address(implementation)));
        // The account's EIP-712 domain names the account, not the implementation.
        assertTrue(account.domainSeparator() != implementation.domainSeparator());
    }

    function test_sponsorRunsTheCallAsTheAccountWithTheAccountsValue() public {
        SponsoredCallDelegate.Call[] memory calls = one(address(recorder), 1 ether, abi.encodeCall(Recorder.record, ()));
        bytes memory signature = sign(alicePk, calls, 0, block.timestamp + 60);
        uint256 sponsorBefore = sponsor.balance;
        vm.prank(sponsor);
        account.execute(calls, 0, block.timestamp + 60, signature);
        assertEq(recorder.lastSender(), alice);
        assertEq(recorder.lastValue(), 1 ether);
        assertEq(address(recorder).balance, 1 ether);
        assertEq(alice.balance, 9 ether);
        assertEq(sponsor.balance, sponsorBefore);
        assertEq(account.nonce(), 1);
    }

    function test_tokenTransferIsSentByTheAccount() public {
        token.mint(alice, 5 ether);
        SponsoredCallDelegate.Call[] memory calls =
            one(address(token), 0, abi.encodeCall(token.transfer, (bob, 2 ether)));
        bytes memory signature = sign(alicePk, calls, 0, block.timestamp);
        vm.prank(sponsor);
        account.execute(calls, 0, block.timestamp, signature);
        assertEq(token.balanceOf(alice), 3 ether);
        assertEq(token.balanceOf(bob), 2 ether);
    }

    function test_batchRunsInOrderAndEmitsExecuted() public {
        SponsoredCallDelegate.Call[] memory calls = new SponsoredCallDelegate.Call[](2);
        calls[0] = SponsoredCallDelegate.Call(address(token), 0, abi.encodeCall(token.mint, (alice, 1 ether)));
        calls[1] = SponsoredCallDelegate.Call(address(token), 0, abi.encodeCall(token.transfer, (bob, 1 ether)));
        bytes memory signature = sign(alicePk, calls, 0, block.timestamp);
        vm.expectEmit(true, false, false, true, alice);
        emit SponsoredCallDelegate.Executed(0, 2);
        vm.prank(sponsor);
        account.execute(calls, 0, block.timestamp, signature);
        assertEq(token.balanceOf(bob), 1 ether);
    }

    function test_RevertWhen_replayed() public {
        SponsoredCallDelegate.Call[] memory calls = one(address(recorder), 1, abi.encodeCall(Recorder.record, ()));
        bytes memory signature = sign(alicePk, calls, 0, block.timestamp);
        vm.prank(sponsor);
        account.execute(calls, 0, block.timestamp, signature);
        vm.expectRevert(abi.encodeWithSelector(SponsoredCallDelegate.InvalidNonce.selector, 1, 0));
        vm.prank(sponsor);
        account.execute(calls, 0, block.timestamp, signature);
        assertEq(alice.balance, 10 ether - 1);
    }

    function test_RevertWhen_signedByAnotherKey() public {
        SponsoredCallDelegate.Call[] memory calls = one(address(recorder), 0, abi.encodeCall(Recorder.record, ()));
        bytes memory signature = sign(0xB0B, calls, 0, block.timestamp);
        vm.expectRevert(SponsoredCallDelegate.InvalidSignature.selector);
        vm.prank(sponsor);
        account.execute(calls, 0, block.timestamp, signature);
    }

    function test_RevertWhen_callsDifferFromTheSignedOnes() public {
        bytes memory signature =
            sign(alicePk, one(address(recorder), 1, abi.encodeCall(Recorder.record, ())), 0, block.timestamp);
        SponsoredCallDelegate.Call[] memory tampered =
            one(address(recorder), 2 ether, abi.encodeCall(Recorder.record, ()));
        vm.expectRevert(SponsoredCallDelegate.InvalidSignature.selector);
        vm.prank(sponsor);
        account.execute(tampered, 0, block.timestamp, signature);
    }

    function test_RevertWhen_signatureIsMalformed() public {
        SponsoredCallDelegate.Call[] memory calls = one(address(recorder), 0, abi.encodeCall(Recorder.record, ()));
        vm.expectRevert(SponsoredCallDelegate.InvalidSignature.selector);
        account.execute(calls, 0, block.timestamp, hex"1234");
    }

    function test_RevertWhen_deadlinePassed() public {
        SponsoredCallDelegate.Call[] memory calls = one(address(recorder), 0, abi.encodeCall(Recorder.record, ()));
        uint256 deadline = block.timestamp + 10;
        bytes memory signature = sign(alicePk, calls, 0, deadline);
        vm.warp(deadline + 1);
        vm.expectRevert(abi.encodeWithSelector(SponsoredCallDelegate.Expired.selector, deadline));
        vm.prank(sponsor);
        account.execute(calls, 0, deadline, signature);
    }

    function test_RevertWhen_aCallReverts_andTheNonceStays() public {
        SponsoredCallDelegate.Call[] memory calls = one(address(recorder), 0, abi.encodeCall(Recorder.fail, ()));
        bytes memory signature = sign(alicePk, calls, 0, block.timestamp);
        vm.expectRevert(
            abi.encodeWithSelector(
                SponsoredCallDelegate.CallFailed.selector, 0, abi.encodeWithSignature("Error(string)", "nope")
            )
        );
        vm.prank(sponsor);
        account.execute(calls, 0, block.timestamp, signature);
        assertEq(account.nonce(), 0);
    }

    function test_RevertWhen_calledOnTheImplementationItself() public {
        SponsoredCallDelegate.Call[] memory calls = one(address(recorder), 0, abi.encodeCall(Recorder.record, ()));
        bytes memory signature = sign(alicePk, calls, 0, block.timestamp);
        vm.expectRevert(SponsoredCallDelegate.InvalidSignature.selector);
        implementation.execute(calls, 0, block.timestamp, signature);
    }

    function test_delegatedAccountStillReceivesEthAndSafeMintedTokens() public {
        vm.deal(bob, 1 ether);
        vm.prank(bob);
        (bool ok,) = alice.call{value: 1 ether}("");
        assertTrue(ok);
        assertEq(alice.balance, 11 ether);
        TestERC721 nft = new TestERC721();
        uint256 id = nft.mint(alice);
        assertEq(nft.ownerOf(id), alice);
        TestERC1155 items = new TestERC1155();
        items.mint(alice, 7, 3, "");
        assertEq(items.balanceOf(alice, 7), 3);
    }
}
