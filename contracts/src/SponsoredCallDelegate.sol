// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155Holder} from "@openzeppelin/contracts/token/ERC1155/utils/ERC1155Holder.sol";
import {ERC721Holder} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Holder.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @title SponsoredCallDelegate
/// @notice EIP-7702 delegate for sponsored (gasless) calls: an EOA delegates
///         to it, signs a batch of calls (EIP-712, the EOA's own key), and
///         anyone may submit `execute` to the EOA's address and pay the gas.
///         The calls run from the EOA: `msg.sender` at each target is the EOA
///         and `value` comes from the EOA's balance.
/// @dev    State lives in the EOA's storage, at an ERC-7201 namespaced slot so
///         that it cannot clash with another delegate the EOA used before.
///         The EIP-712 domain's `verifyingContract` is the EOA (`address(this)`
///         under delegation). Token receiver hooks keep NFT transfers to the
///         delegated EOA working.
contract SponsoredCallDelegate is EIP712, ERC721Holder, ERC1155Holder {
    /// @notice One call: target, wei sent from the EOA, calldata.
    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    /// @custom:storage-location erc7201:embedded-wallets.SponsoredCallDelegate
    struct DelegateStorage {
        uint256 nonce;
    }

    /// @notice EIP-712 type hash of {Call}.
    bytes32 public constant CALL_TYPEHASH = keccak256("Call(address to,uint256 value,bytes data)");

    /// @notice EIP-712 type hash of what the EOA signs.
    bytes32 public constant EXECUTE_TYPEHASH =
        keccak256("Execute(Call[] calls,uint256 nonce,uint256 deadline)Call(address to,uint256 value,bytes data)");

    // keccak256(abi.encode(uint256(keccak256("embedded-wallets.SponsoredCallDelegate")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_SLOT = 0x0eac6987a84cba3f185da5ad46d01800ac9b28f5e67669bdc50e03d0522c7d00;

    /// @notice The signed batch's deadline has passed.
    error Expired(uint256 deadline);
    /// @notice The signed nonce is not the account's next nonce (e.g. a replay).
    error InvalidNonce(uint256 expected, uint256 given);
    /// @notice The signature is not the account's own.
    error InvalidSignature();
    /// @notice Call `index` of the batch reverted with `reason`.
    error CallFailed(uint256 index, bytes reason);

    /// @notice A signed batch ran; `nonce` is the nonce it used.
    event Executed(uint256 indexed nonce, uint256 calls);

    constructor() EIP712("SponsoredCallDelegate", "1") {}

    /// @notice Lets the delegated EOA keep receiving plain ETH transfers.
    receive() external payable {}

    /// @notice Runs `calls` from this account after checking that the account
    ///         itself signed them with its next `nonce` before `deadline`.
    /// @param calls The calls, run in order; any revert reverts the batch.
    /// @param nonce_ The account's next nonce ({nonce}); used once.
    /// @param deadline Last valid `block.timestamp`.
    /// @param signature The account's EIP-712 signature of `Execute`.
    function execute(Call[] calldata calls, uint256 nonce_, uint256 deadline, bytes calldata signature)
        external
        payable
    {
        if (block.timestamp > deadline) revert Expired(deadline);
        DelegateStorage storage $ = _storage();
        if (nonce_ != $.nonce) revert InvalidNonce($.nonce, nonce_);
        (address signer, ECDSA.RecoverError recoverError,) =
            ECDSA.tryRecover(_hashTypedDataV4(hashExecute(calls, nonce_, deadline)), signature);
        if (recoverError != ECDSA.RecoverError.NoError || signer != address(this)) revert InvalidSignature();
        $.nonce = nonce_ + 1;
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory reason) = calls[i].to.call{value: calls[i].value}(calls[i].data);
            if (!ok) revert CallFailed(i, reason);
        }
        emit Executed(nonce_, calls.length);
    }

    /// @notice The nonce the next signed batch must use.
    function nonce() external view returns (uint256) {
        return _storage().nonce;
    }

    /// @notice The EIP-712 struct hash of an `Execute` (before the domain).
    function hashExecute(Call[] calldata calls, uint256 nonce_, uint256 deadline) public pure returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            hashes[i] = keccak256(abi.encode(CALL_TYPEHASH, calls[i].to, calls[i].value, keccak256(calls[i].data)));
        }
        return keccak256(abi.encode(EXECUTE_TYPEHASH, keccak256(abi.encodePacked(hashes)), nonce_, deadline));
    }

    /// @notice The EIP-712 domain separator of this account.
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    function _storage() private pure returns (DelegateStorage storage $) {
        assembly {
            $.slot := STORAGE_SLOT
        }
    }
}
