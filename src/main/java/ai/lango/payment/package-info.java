/**
 * Payments in USDC on an EVM chain (Base Sepolia by default): the wallet (a key in the vault), the
 * ledger (every payment stored before it is signed; the day's total raised only within its limit,
 * by one conditional UPDATE, so servers sharing a database cannot overspend together), sending an
 * ERC-20 transfer and following it to its receipt, reconciling what a crash left from the chain
 * alone, x402 v2 with EIP-3009 authorizations signed as EIP-712 for the token's own domain, and the
 * payment_ tools. Amounts are exact decimals in base units, never floating point.
 */
package ai.lango.payment;
