-- Rate limits shared by several app instances on one database (issue 17):
-- what was let through per kind of request and key (an address, a name),
-- when, and how much (1, or bytes). Written only with several instances;
-- an instance alone counts in memory. Rows older than the longest window
-- are deleted from time to time.
CREATE TABLE rate_hits (
    kind    TEXT NOT NULL,
    key     TEXT NOT NULL,
    at_ms   INTEGER NOT NULL,                   -- Unix milliseconds
    amount  INTEGER NOT NULL
);
CREATE INDEX rate_hits_by_key ON rate_hits (kind, key, at_ms);
CREATE INDEX rate_hits_by_time ON rate_hits (at_ms);
