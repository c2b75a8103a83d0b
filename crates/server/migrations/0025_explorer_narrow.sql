-- PostgreSQL's twin narrows the explorer's integer columns; SQLite already
-- stores each integer in as few bytes as its value needs, so nothing
-- changes here.
SELECT 1;
