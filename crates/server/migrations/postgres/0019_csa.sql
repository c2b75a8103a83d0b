-- (PostgreSQL twin of ../0019_csa.sql, which explains the columns.)
ALTER TABLE users ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN csa_token_hash TEXT;
