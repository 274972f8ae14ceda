// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IERC20Like {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IERC20PermitLike {
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;
}

/// @title Test stand-in for the ramp service's off-ramp escrow.
/// @notice Mirrors the public interface: the current 3-input withdrawToEscrow, the legacy 4-input one,
///         withdrawWithPermit, viewDepositWithNonce, depositNonce and the v1 Deposited event. `_amount`
///         always includes the fee: the whole amount is pulled from the sender, then the fee goes on to
///         the beneficiary. The zero token address means the native coin (msg.value must equal `_amount`).
///         No admin, pause or upgrade machinery: test-only.
contract TestEscrow {
    struct DepositInfo {
        address token;
        address user;
        uint256 amount;
        uint256 exchangeRate;
        uint256 feeAmount;
    }

    address public immutable beneficiary;
    uint256 public depositNonce;
    mapping(uint256 => DepositInfo) private _deposits;

    /// @dev Same shape and topic as the reference escrow's v1 event; `amount` includes the fee.
    event Deposited(
        address user,
        address token,
        uint256 indexed amount,
        uint256 indexed nonce,
        uint256 indexed exchangeRate,
        uint256 feeAmount
    );

    /// @dev Codes as in the reference: 0 balance, 1 zero address, 2 transfer. 3 = fee larger than amount.
    error InsufficientBalance(uint256 code);
    error AddressZero(uint256 code);
    error TransferFailed(uint256 code);

    constructor(address beneficiary_) {
        if (beneficiary_ == address(0)) revert AddressZero(1);
        beneficiary = beneficiary_;
    }

    /// @notice Current variant: exchange rate recorded as 0.
    function withdrawToEscrow(address _tokenAddress, uint256 _amount, uint256 _feeAmount)
        external
        payable
        returns (uint256 nonce)
    {
        return _deposit(_tokenAddress, _amount, 0, _feeAmount);
    }

    /// @notice Legacy 4-input variant.
    function withdrawToEscrow(address _tokenAddress, uint256 _amount, uint256 _exchangeRate, uint256 _feeAmount)
        external
        payable
        returns (uint256 nonce)
    {
        return _deposit(_tokenAddress, _amount, _exchangeRate, _feeAmount);
    }

    /// @notice Legacy permit variant: EIP-2612 approval for `_amount`, then the same deposit.
    function withdrawWithPermit(
        address _tokenAddress,
        uint256 _amount,
        uint256 _exchangeRate,
        uint256 _feeAmount,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external returns (uint256 nonce) {
        if (_tokenAddress == address(0)) revert AddressZero(1);
        IERC20PermitLike(_tokenAddress).permit(msg.sender, address(this), _amount, deadline, v, r, s);
        return _deposit(_tokenAddress, _amount, _exchangeRate, _feeAmount);
    }

    function viewDepositWithNonce(uint256 _nonce)
        external
        view
        returns (address token, address user, uint256 amount, uint256 exchangeRate, uint256 feeAmount)
    {
        DepositInfo storage d = _deposits[_nonce];
        return (d.token, d.user, d.amount, d.exchangeRate, d.feeAmount);
    }

    function _deposit(address token, uint256 amount, uint256 exchangeRate, uint256 feeAmount)
        private
        returns (uint256 nonce)
    {
        if (feeAmount > amount) revert InsufficientBalance(3);
        if (token == address(0)) {
            require(msg.value == amount, "Incorrect ETH value");
            if (feeAmount > 0) {
                (bool sent,) = beneficiary.call{value: feeAmount}("");
                if (!sent) revert TransferFailed(2);
            }
        } else {
            require(msg.value == 0, "Incorrect ETH value");
            IERC20Like erc20 = IERC20Like(token);
            if (erc20.balanceOf(msg.sender) < amount) revert InsufficientBalance(0);
            if (!erc20.transferFrom(msg.sender, address(this), amount)) revert TransferFailed(2);
            if (feeAmount > 0 && !erc20.transfer(beneficiary, feeAmount)) revert TransferFailed(2);
        }
        nonce = depositNonce++;
        _deposits[nonce] = DepositInfo(token, msg.sender, amount - feeAmount, exchangeRate, feeAmount);
        emit Deposited(msg.sender, token, amount, nonce, exchangeRate, feeAmount);
    }
}
