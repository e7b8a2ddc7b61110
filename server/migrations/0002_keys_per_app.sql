-- Idempotency-Key scoped per App-Name (ruling 51): one application's key
-- never finds another's order. The key is unique per (app_name,
-- idempotency_key) instead of alone. Rows written before this migration do
-- not say which application created them: they keep their order, their key
-- and their digest, with app_name NULL, which no request matches (NULLs are
-- distinct in a unique constraint, and every request names an application).
-- Their keys no longer replay: a retry that straddles the upgrade creates a
-- new order rather than answer one application another's.
--
-- updated_at (epoch ms) is kept beside the body's `updatedAt`; rows from
-- before start at their created_at.
--
-- A table rebuild, so that the same text runs on SQLite (which cannot drop a
-- column's UNIQUE constraint in place) and PostgreSQL; sqlx runs each
-- migration in a transaction on both.
CREATE TABLE orders_keyed_per_app (
    id TEXT PRIMARY KEY,
    app_name TEXT,
    idempotency_key TEXT,
    request_digest TEXT,
    body TEXT NOT NULL,
    revision BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (app_name, idempotency_key)
);
INSERT INTO orders_keyed_per_app
    (id, app_name, idempotency_key, request_digest, body, revision, created_at, updated_at)
    SELECT id, NULL, idempotency_key, request_digest, body, revision, created_at, created_at
    FROM orders;
DROP TABLE orders;
ALTER TABLE orders_keyed_per_app RENAME TO orders;
