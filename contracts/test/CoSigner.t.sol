// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {CoSigner} from "../src/CoSigner.sol";

/// @dev Sequence v1 `IModuleCalls.Transaction`.
struct Transaction {
    bool delegateCall;
    bool revertOnError;
    uint256 gasLimit;
    address target;
    uint256 value;
    bytes data;
}

/// @dev The parts of Sequence v1 (@0xsequence/wallet-contracts 1.10.0) these
///      tests call. The contracts themselves come from the package's compiled
///      artifacts (they need solc 0.7), deployed with `deployCode`.
interface ISequenceFactory {
    function deploy(address mainModule, bytes32 salt) external payable returns (address);
}

interface ISequenceWallet {
    function execute(Transaction[] calldata txs, uint256 nonce, bytes calldata signature) external;
    function nonce() external view returns (uint256);
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// @dev Records who called it and with how much wei.
contract Recorder {
    address public lastSender;
    uint256 public lastValue;

    function record() external payable {
        lastSender = msg.sender;
        lastValue = msg.value;
    }
}

/// @dev A co-signer whose key is `signerPk`, and a signing helper.
abstract contract CoSignerBase is Test {
    bytes4 internal constant MAGIC = 0x1626ba7e;
    bytes4 internal constant INVALID = 0xffffffff;
    /// @dev secp256k1's group order.
    uint256 internal constant N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141;

    uint256 internal signerPk = 0xC051;
    address internal signerAddress = vm.addr(signerPk);
    CoSigner internal coSigner;

    function setUp() public virtual {
        coSigner = new CoSigner(signerAddress);
    }

    /// @dev `r ‖ s ‖ v ‖ kind`: kind 1 signs `hash` itself, kind 2 its eth_sign form.
    function sign(uint256 pk, bytes32 hash, uint8 kind) internal pure returns (bytes memory) {
        bytes32 digest = kind == 2 ? MessageHashUtils.toEthSignedMessageHash(hash) : hash;
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(pk, digest);
        return abi.encodePacked(r, s, v, kind);
    }
}

contract CoSignerTest is CoSignerBase {

    function test_acceptsTheSignersEthSignSignature() public view {
        bytes32 hash = keccak256("game");
        assertEq(coSigner.isValidSignature(hash, sign(signerPk, hash, 2)), MAGIC);
    }

    function test_acceptsTheSignersEip712Signature() public view {
        bytes32 hash = keccak256("game");
        assertEq(coSigner.isValidSignature(hash, sign(signerPk, hash, 1)), MAGIC);
    }

    function test_refusesASignatureOverAnotherHash() public view {
        assertEq(coSigner.isValidSignature(keccak256("a"), sign(signerPk, keccak256("b"), 2)), INVALID);
    }

    function test_refusesTheWrongTypeForTheSignedForm() public view {
        bytes32 hash = keccak256("game");
        bytes memory signature = sign(signerPk, hash, 2);
        signature[65] = bytes1(uint8(1));
        assertEq(coSigner.isValidSignature(hash, signature), INVALID);
    }

    function test_refusesAnotherKey() public view {
        bytes32 hash = keccak256("game");
        assertEq(coSigner.isValidSignature(hash, sign(0xBAD, hash, 2)), INVALID);
        assertEq(coSigner.isValidSignature(hash, sign(0xBAD, hash, 1)), INVALID);
    }

    function test_refusesTheHighSTwinOfAValidSignature() public view {
        bytes32 hash = keccak256("game");
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(signerPk, hash);
        // (r, n - s, v ^ 1) recovers the same key; EIP-2 forbids it.
        bytes memory twin = abi.encodePacked(r, bytes32(N - uint256(s)), v == 27 ? uint8(28) : uint8(27), uint8(1));
        assertEq(coSigner.isValidSignature(hash, twin), INVALID);
        assertEq(coSigner.isValidSignature(hash, abi.encodePacked(r, s, v, uint8(1))), MAGIC);
    }

    function test_refusesAVOtherThan27Or28() public view {
        bytes32 hash = keccak256("game");
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(signerPk, hash);
        assertEq(coSigner.isValidSignature(hash, abi.encodePacked(r, s, v - 27, uint8(1))), INVALID);
        assertEq(coSigner.isValidSignature(hash, abi.encodePacked(r, s, v + 2, uint8(1))), INVALID);
    }

    function test_refusesUnknownTypes() public view {
        bytes32 hash = keccak256("game");
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(signerPk, hash);
        assertEq(coSigner.isValidSignature(hash, abi.encodePacked(r, s, v, uint8(0))), INVALID);
        assertEq(coSigner.isValidSignature(hash, abi.encodePacked(r, s, v, uint8(3))), INVALID);
    }

    function test_refusesWrongLengths() public view {
        bytes32 hash = keccak256("game");
        bytes memory valid = sign(signerPk, hash, 1);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(signerPk, hash);
        assertEq(coSigner.isValidSignature(hash, abi.encodePacked(r, s, v)), INVALID);
        assertEq(coSigner.isValidSignature(hash, abi.encodePacked(valid, uint8(1))), INVALID);
        assertEq(coSigner.isValidSignature(hash, ""), INVALID);
    }

    function testFuzz_neverAcceptsOrRevertsOnArbitraryBytes(bytes32 hash, bytes calldata signature) public view {
        assertEq(coSigner.isValidSignature(hash, signature), INVALID);
    }

    function test_theOldSignerStaysValidUntilTheRolloverExpires() public {
        uint256 nextPk = 0xC052;
        bytes32 hash = keccak256("game");
        coSigner.setSigner(vm.addr(nextPk), 1 hours);
        assertEq(coSigner.signer(), vm.addr(nextPk));
        assertEq(coSigner.rolloverSigner(), signerAddress);
        assertEq(coSigner.rolloverExpiry(), block.timestamp + 1 hours);
        assertEq(coSigner.isValidSignature(hash, sign(nextPk, hash, 2)), MAGIC);
        assertEq(coSigner.isValidSignature(hash, sign(signerPk, hash, 2)), MAGIC);
        vm.warp(block.timestamp + 1 hours);
        assertEq(coSigner.isValidSignature(hash, sign(signerPk, hash, 2)), MAGIC);
        vm.warp(block.timestamp + 1);
        assertEq(coSigner.isValidSignature(hash, sign(signerPk, hash, 2)), INVALID);
        assertEq(coSigner.isValidSignature(hash, sign(nextPk, hash, 2)), MAGIC);
    }

    function test_aZeroRolloverRefusesTheOldSignerAtOnce() public {
        bytes32 hash = keccak256("game");
        coSigner.setSigner(vm.addr(0xC052), 0);
        assertEq(coSigner.isValidSignature(hash, sign(signerPk, hash, 2)), INVALID);
        assertEq(coSigner.isValidSignature(hash, sign(0xC052, hash, 2)), MAGIC);
    }

    function test_onlyTheOwnerChangesTheSignerOrTheOwner() public {
        address stranger = makeAddr("stranger");
        vm.startPrank(stranger);
        vm.expectRevert(abi.encodeWithSelector(CoSigner.NotOwner.selector, stranger));
        coSigner.setSigner(stranger, 0);
        vm.expectRevert(abi.encodeWithSelector(CoSigner.NotOwner.selector, stranger));
        coSigner.transferOwnership(stranger);
        vm.stopPrank();

        coSigner.transferOwnership(stranger);
        assertEq(coSigner.owner(), stranger);
        vm.expectRevert(abi.encodeWithSelector(CoSigner.NotOwner.selector, address(this)));
        coSigner.setSigner(address(this), 0);
        vm.prank(stranger);
        coSigner.setSigner(address(this), 0);
        assertEq(coSigner.signer(), address(this));
    }

    function test_refusesTheZeroAddress() public {
        vm.expectRevert(CoSigner.ZeroAddress.selector);
        new CoSigner(address(0));
        vm.expectRevert(CoSigner.ZeroAddress.selector);
        coSigner.setSigner(address(0), 0);
        vm.expectRevert(CoSigner.ZeroAddress.selector);
        coSigner.transferOwnership(address(0));
    }
}

/// @dev A game wallet: Sequence v1 {player EOA w1, CoSigner w1} threshold 2.
contract GameWalletTest is CoSignerBase {
    string internal constant ARTIFACTS = "node_modules/@0xsequence/wallet-contracts/artifacts/contracts/";
    /// @dev `Wallet.creationCode` of Sequence v1 (contracts/Wallet.sol).
    bytes internal constant WALLET_CREATION_CODE =
        hex"603a600e3d39601a805130553df3363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3";

    ISequenceFactory internal factory;
    address internal mainModule;
    ISequenceWallet internal guestModule;
    Recorder internal recorder;
    uint256 internal playerPk = 0xA11CE;
    address internal player = vm.addr(playerPk);
    address internal bob = makeAddr("bob");
    address internal relayer = makeAddr("relayer");

    function setUp() public override {
        super.setUp();
        factory = ISequenceFactory(deployCode(string.concat(ARTIFACTS, "Factory.sol/Factory.json")));
        mainModule =
            deployCode(string.concat(ARTIFACTS, "modules/MainModule.sol/MainModule.json"), abi.encode(address(factory)));
        guestModule = ISequenceWallet(deployCode(string.concat(ARTIFACTS, "modules/GuestModule.sol/GuestModule.json")));
        recorder = new Recorder();
    }

    /// @dev `h = bytes32(threshold)`, then `h = keccak256(abi.encode(h, weight, signer))` in ascending order.
    function imageHash() internal view returns (bytes32) {
        (address low, address high) = sorted();
        bytes32 h = bytes32(uint256(2));
        h = keccak256(abi.encode(h, uint256(1), low));
        return keccak256(abi.encode(h, uint256(1), high));
    }

    function sorted() internal view returns (address, address) {
        return player < address(coSigner) ? (player, address(coSigner)) : (address(coSigner), player);
    }

    /// @dev CREATE2 of the factory with the image hash as salt.
    function counterfactual() internal view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(WALLET_CREATION_CODE, uint256(uint160(mainModule))));
        return address(
            uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(factory), imageHash(), initCodeHash))))
        );
    }

    function subDigest(address wallet, bytes32 hash) internal view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", block.chainid, wallet, hash));
    }

    /// @dev threshold 2, the player's EOA part and the co-signer's dynamic part, ascending by address.
    function walletSignature(bytes32 sub, uint256 coSignerPk, uint8 innerType) internal view returns (bytes memory) {
        bytes memory playerPart = abi.encodePacked(uint8(0), uint8(1), sign(playerPk, sub, 2));
        bytes memory inner = sign(coSignerPk, sub, innerType);
        bytes memory coSignerPart = abi.encodePacked(
            uint8(2), uint8(1), address(coSigner), uint16(inner.length + 1), inner, uint8(3)
        );
        return player < address(coSigner)
            ? abi.encodePacked(uint16(2), playerPart, coSignerPart)
            : abi.encodePacked(uint16(2), coSignerPart, playerPart);
    }

    function recordCall(uint256 value) internal view returns (Transaction[] memory txs) {
        txs = new Transaction[](1);
        txs[0] = Transaction(false, true, 0, address(recorder), value, abi.encodeCall(Recorder.record, ()));
    }

    function executeDigest(address wallet, uint256 nonce, Transaction[] memory txs) internal view returns (bytes32) {
        return subDigest(wallet, keccak256(abi.encode(nonce, txs)));
    }

    function deployAndExecute(address wallet, Transaction[] memory txs, bytes memory signature)
        internal
        view
        returns (Transaction[] memory batch)
    {
        batch = new Transaction[](2);
        batch[0] = Transaction(
            false, true, 0, address(factory), 0, abi.encodeCall(ISequenceFactory.deploy, (mainModule, imageHash()))
        );
        batch[1] = Transaction(false, true, 0, wallet, 0, abi.encodeCall(ISequenceWallet.execute, (txs, 0, signature)));
    }

    function test_theGuestModuleDeploysAndExecutesInOneTransaction() public {
        address wallet = counterfactual();
        vm.deal(wallet, 1 ether);
        assertEq(wallet.code.length, 0);
        Transaction[] memory txs = recordCall(0.25 ether);
        bytes memory signature = walletSignature(executeDigest(wallet, 0, txs), signerPk, 2);

        vm.prank(relayer);
        guestModule.execute(deployAndExecute(wallet, txs, signature), 0, "");

        assertGt(wallet.code.length, 0);
        assertEq(recorder.lastSender(), wallet);
        assertEq(recorder.lastValue(), 0.25 ether);
        assertEq(ISequenceWallet(wallet).nonce(), 1);
        assertEq(wallet.balance, 0.75 ether);

        // The deployed wallet then executes on its own, at the next nonce.
        txs[0].value = 0.5 ether;
        ISequenceWallet(wallet).execute(txs, 1, walletSignature(executeDigest(wallet, 1, txs), signerPk, 2));
        assertEq(recorder.lastValue(), 0.5 ether);
        assertEq(ISequenceWallet(wallet).nonce(), 2);
    }

    function test_thePlayersPartAloneCannotExecute() public {
        address wallet = counterfactual();
        factory.deploy(mainModule, imageHash());
        Transaction[] memory txs = recordCall(0);
        // Threshold 1 with one part rebuilds another image hash than the wallet's.
        bytes memory userOnly =
            abi.encodePacked(uint16(1), uint8(0), uint8(1), sign(playerPk, executeDigest(wallet, 0, txs), 2));
        vm.expectRevert(bytes("ModuleCalls#execute: INVALID_SIGNATURE"));
        ISequenceWallet(wallet).execute(txs, 0, userOnly);
    }

    function test_aCoSignatureFromAnotherKeyCannotExecute() public {
        address wallet = counterfactual();
        factory.deploy(mainModule, imageHash());
        Transaction[] memory txs = recordCall(0);
        bytes memory signature = walletSignature(executeDigest(wallet, 0, txs), 0xBAD, 2);
        vm.expectRevert(bytes("ModuleAuth#_signatureValidation: INVALID_SIGNATURE"));
        ISequenceWallet(wallet).execute(txs, 0, signature);
    }

    function test_theWalletValidatesAPersonalSignHash() public {
        address wallet = counterfactual();
        factory.deploy(mainModule, imageHash());
        bytes32 hash = MessageHashUtils.toEthSignedMessageHash(bytes("Sign in to the game"));
        bytes memory signature = walletSignature(subDigest(wallet, hash), signerPk, 2);
        assertEq(ISequenceWallet(wallet).isValidSignature(hash, signature), MAGIC);
        assertEq(ISequenceWallet(wallet).isValidSignature(hash, walletSignature(subDigest(wallet, hash), signerPk, 1)), MAGIC);
        // The same signature over another hash is refused.
        vm.expectRevert(bytes("ModuleAuth#_signatureValidation: INVALID_SIGNATURE"));
        ISequenceWallet(wallet).isValidSignature(keccak256("other"), signature);
    }

    function test_theWalletValidatesAnEip712Hash() public {
        address wallet = counterfactual();
        factory.deploy(mainModule, imageHash());
        bytes32 domain = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("Game"),
                keccak256("1"),
                block.chainid,
                address(recorder)
            )
        );
        bytes32 structHash = keccak256(abi.encode(keccak256("Mail(string contents)"), keccak256("hello")));
        bytes32 hash = MessageHashUtils.toTypedDataHash(domain, structHash);
        bytes memory signature = walletSignature(subDigest(wallet, hash), signerPk, 2);
        assertEq(ISequenceWallet(wallet).isValidSignature(hash, signature), MAGIC);
    }

    function test_theWalletAcceptsTheRolloverSignerAfterAKeyChange() public {
        address wallet = counterfactual();
        factory.deploy(mainModule, imageHash());
        bytes32 hash = keccak256("game");
        coSigner.setSigner(vm.addr(0xC052), 1 days);
        assertEq(ISequenceWallet(wallet).isValidSignature(hash, walletSignature(subDigest(wallet, hash), signerPk, 2)), MAGIC);
        assertEq(ISequenceWallet(wallet).isValidSignature(hash, walletSignature(subDigest(wallet, hash), 0xC052, 2)), MAGIC);
    }
}
