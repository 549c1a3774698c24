// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/// @title CoSigner
/// @notice The second signer of a game wallet: a Sequence v1 wallet whose
///         configuration is {player EOA, this contract}, weight 1 each,
///         threshold 2. The wallet asks this contract through ERC-1271 whether
///         the relayer's co-signing key signed a hash, so the key can change
///         (with an overlap, the rollover) without touching any wallet's
///         configuration or counterfactual address.
/// @dev    A signature is `r ‖ s ‖ v ‖ type`, 66 bytes, the layout Sequence
///         v1's SignatureValidator uses for EOA parts: type 1 recovers over the
///         hash itself, type 2 over its EIP-191 `eth_sign` form
///         ("\x19Ethereum Signed Message:\n32" ‖ hash). `v` must be 27 or 28
///         and `s` in the lower half of the curve order (EIP-2), as
///         OpenZeppelin's ECDSA enforces.
contract CoSigner {
    /// @notice ERC-1271's magic value: `isValidSignature.selector`.
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    /// @notice What `isValidSignature` answers for anything else.
    bytes4 internal constant INVALID = 0xffffffff;
    /// @notice Inner signature type: recover over the hash itself.
    uint8 public constant EIP712_TYPE = 1;
    /// @notice Inner signature type: recover over the `eth_sign` form of the hash.
    uint8 public constant ETH_SIGN_TYPE = 2;

    /// @notice May change the signer and hand over ownership.
    address public owner;
    /// @notice The key whose signatures this contract accepts.
    address public signer;
    /// @notice The previous key, still accepted until {rolloverExpiry}.
    address public rolloverSigner;
    /// @notice Unix time (seconds) after which {rolloverSigner} is refused.
    uint256 public rolloverExpiry;

    event OwnerChanged(address indexed previousOwner, address indexed newOwner);
    event SignerChanged(address indexed signer, address indexed rolloverSigner, uint256 rolloverExpiry);

    error NotOwner(address caller);
    error ZeroAddress();

    /// @param signer_ The co-signing key; the deployer becomes the owner.
    constructor(address signer_) {
        if (signer_ == address(0)) revert ZeroAddress();
        owner = msg.sender;
        signer = signer_;
        emit OwnerChanged(address(0), msg.sender);
        emit SignerChanged(signer_, address(0), 0);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    /// @notice Replaces the signer; the current one stays valid for
    ///         `rolloverSeconds` more (0: refused at once).
    function setSigner(address newSigner, uint256 rolloverSeconds) external onlyOwner {
        if (newSigner == address(0)) revert ZeroAddress();
        rolloverSigner = signer;
        rolloverExpiry = rolloverSeconds == 0 ? 0 : block.timestamp + rolloverSeconds;
        signer = newSigner;
        emit SignerChanged(newSigner, rolloverSigner, rolloverExpiry);
    }

    /// @notice Hands ownership to `newOwner`.
    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnerChanged(owner, newOwner);
        owner = newOwner;
    }

    /// @notice ERC-1271: `0x1626ba7e` when `signature` is the signer's (or the
    ///         unexpired rollover signer's) over `hash`, else `0xffffffff`.
    ///         Never reverts on a malformed signature.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 66) return INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        uint8 kind = uint8(signature[65]);
        bytes32 digest;
        if (kind == EIP712_TYPE) digest = hash;
        else if (kind == ETH_SIGN_TYPE) digest = MessageHashUtils.toEthSignedMessageHash(hash);
        else return INVALID;
        // ecrecover itself accepts only v 27/28; tryRecover refuses a high s.
        (address recovered, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(digest, v, r, s);
        if (recoverError != ECDSA.RecoverError.NoError) return INVALID;
        if (recovered == signer) return MAGIC_VALUE;
        if (recovered == rolloverSigner && block.timestamp <= rolloverExpiry) return MAGIC_VALUE;
        return INVALID;
    }
}
