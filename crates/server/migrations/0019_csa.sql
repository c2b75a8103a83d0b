-- Programs that play over the CSA server protocol (docs/CSA.md): an
-- account marked as a program (`shogi user add NAME --bot`), and the
-- SHA-256 of its CSA token, the password its LOGIN carries (never the web
-- password; NULL: no token issued).
ALTER TABLE users ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN csa_token_hash TEXT;
