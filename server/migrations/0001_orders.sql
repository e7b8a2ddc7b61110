-- Orders, one row each: the JSON body exactly as answered, the
-- Idempotency-Key it was created with (unique: a retry finds the row instead
-- of creating a second one) and the digest of the request it answered.
-- Portable SQL: the same text runs on SQLite and PostgreSQL.
CREATE TABLE orders (
    id TEXT PRIMARY KEY,
    idempotency_key TEXT UNIQUE,
    request_digest TEXT,
    body TEXT NOT NULL,
    revision BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
