"""One side of a CSA game played by python-shogi's client (shogi.CSA.TCPProtocol),
for crates/server/tests/csa.rs: logs in, agrees, answers Sente's first move
with 3c3d, then resigns. Usage: csa_python_client.py HOST PORT USER PASSWORD"""
import sys

import shogi
import shogi.CSA

host, port, user, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
p = shogi.CSA.TCPProtocol(host, port)
p.login(user, password)
match = p.wait_match()
assert match["my_color"] == shogi.WHITE, match
board = shogi.Board(match["summary"]["sfen"])
p.agree()
(color, usi, seconds, message) = p.wait_server_message(board)
assert (color, usi, message) == (shogi.BLACK, "7g7f", None), (color, usi, message)
board.push_usi(usi)
mv = shogi.Move.from_usi("3c3d")
p.move(board.piece_type_at(mv.from_square), shogi.WHITE, mv)
board.push(mv)
p.resign()
print("python-shogi: resigned after", len(board.move_stack), "moves")
