-- (PostgreSQL twin of ../0017_secrets.sql, which explains the table.)
CREATE TABLE server_secrets (
    name   TEXT PRIMARY KEY NOT NULL,
    secret TEXT NOT NULL
);
