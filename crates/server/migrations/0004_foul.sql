-- The kind of foul that lost a game, so that its ending is rebuilt exactly:
-- move (the last stored move was illegal; replaying names the rule broken),
-- unreadable_move, or false_declaration (stored with reason 'impasse', the
-- protocol's word for a declaration the declarer loses). NULL otherwise, and
-- for games stored before this migration (an 'illegal_move' then is a move).
ALTER TABLE games ADD COLUMN foul TEXT;
