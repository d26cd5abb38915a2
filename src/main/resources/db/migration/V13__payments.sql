-- Payments. lango_payments holds each payment from before it is signed: 'reserved' (counted against
-- the day's limit), 'signed' (its transaction hash known, about to be sent), 'sent', then 'confirmed'
-- or 'failed'; an x402 payment is 'authorized' (an EIP-3009 authorization handed to the seller), then
-- 'settled' or 'failed'. A failed payment no longer counts. lango_payment_days holds, per wallet and
-- UTC day, what counts against lango.payment.limits.max-daily: raised only by a conditional UPDATE
-- that keeps it within the limit, so two payments that only one fits can never both pass, on one
-- server or many.
CREATE TABLE lango_payments (
    id           VARCHAR(36)   NOT NULL PRIMARY KEY,
    kind         VARCHAR(8)    NOT NULL,
    user_id      VARCHAR(255)  NOT NULL,
    session_key  VARCHAR(255)  NOT NULL,
    wallet       VARCHAR(42)   NOT NULL,
    chain_id     BIGINT        NOT NULL,
    to_address   VARCHAR(42)   NOT NULL,
    amount_units BIGINT        NOT NULL,
    purpose      VARCHAR(1024) NOT NULL,
    pay_day      VARCHAR(10)   NOT NULL,
    status       VARCHAR(16)   NOT NULL,
    nonce        VARCHAR(66),
    tx_hash      VARCHAR(66),
    detail       VARCHAR(1024),
    valid_before BIGINT,
    created_at   BIGINT        NOT NULL,
    updated_at   BIGINT        NOT NULL
);
CREATE INDEX ix_lango_payments_status ON lango_payments (status, updated_at);
CREATE INDEX ix_lango_payments_wallet ON lango_payments (wallet, created_at);
CREATE TABLE lango_payment_days (
    wallet          VARCHAR(42)  NOT NULL,
    pay_day         VARCHAR(10)  NOT NULL,
    committed_units BIGINT       NOT NULL,
    CONSTRAINT pk_lango_payment_days PRIMARY KEY (wallet, pay_day)
);
