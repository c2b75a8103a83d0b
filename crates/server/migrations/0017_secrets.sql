-- Secrets the instances of a server share, made once at the first start
-- that needs them: `puzzle_serve` keys the tokens that say a puzzle was
-- served to an account (its first attempt at it is then rated).
CREATE TABLE server_secrets (
    name   TEXT PRIMARY KEY NOT NULL,
    secret TEXT NOT NULL
);
