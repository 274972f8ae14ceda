// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {TestERC20} from "./TestERC20.sol";

/// @title USDT-like test token: plain ERC-20, 6 decimals, mintable by anyone.
contract TestToken is TestERC20 {
    constructor(string memory name_, string memory symbol_) TestERC20(name_, symbol_) {}
}
