-- The learn pages' progress of an account (GET/PUT /api/me/learn): one row
-- per exercise solved, by its id in web/src/lessons/lessons.json. Guests keep
-- theirs in the browser and merge it into the account when they log in.
CREATE TABLE learn_progress (
    user_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    exercise TEXT NOT NULL,
    done_at  BIGINT NOT NULL,                  -- Unix milliseconds
    PRIMARY KEY (user_id, exercise)
);
