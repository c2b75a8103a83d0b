#!/usr/bin/env python3
"""What an append-only moves log would save SQLite, measured apart from the server.

docs/LOAD.md ("The moves log, measured as the server runs")
quotes this script's figures. It stores 10,000 games with 30 moves each,
then plays 6 more moves a game in random order, in statements of BATCH
rows (what the committer writes at 6000-10,000 games), with a PASSIVE
checkpoint every 10,000 moves as the server does each second, and prints
the CPU time a move took, for each variant named:

  direct   rows go into `moves` (key (game_id, ply)), as the server does;
  log      rows go into an unindexed `move_log`, emptied into `moves` in one
           transaction every FLUSH moves;
  logtrig  the same with a trigger refusing what `moves` refuses (a move of
           an unknown game, a second move at a ply already moved);
  logpk    a `move_log` keyed by (game_id, ply) plus that trigger.

Usage: moves-log-bench.py direct,log,logtrig [FLUSH]
Extra pragmas: PRAGMAS='mmap_size=1073741824;cache_size=-65536'.
Python's standard library only; it writes /tmp/moves-log-bench-*.db.
"""
import sqlite3, random, time, os, sys
N=10000; BATCH=4; FLUSH=int(sys.argv[2]) if len(sys.argv)>2 else 2500; PRE=30; MEAS=6
def setup(variant):
    path='/tmp/moves-log-bench-%s.db'%variant
    for ext in ('','-wal','-shm'):
        try: os.remove(path+ext)
        except FileNotFoundError: pass
    c=sqlite3.connect(path, isolation_level=None)
    c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA synchronous=NORMAL'); c.execute('PRAGMA wal_autocheckpoint=0'); c.execute('PRAGMA foreign_keys=ON')
    for p in os.environ.get('PRAGMAS','').split(';'):
        p.strip() and c.execute('PRAGMA '+p)
    c.execute('CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, x INTEGER)')
    c.execute('CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, usi TEXT NOT NULL, used_ms INTEGER NOT NULL, main_ms_after INTEGER NOT NULL, periods_after INTEGER NOT NULL, PRIMARY KEY (game_id, ply))')
    cols='game_id TEXT NOT NULL, ply INTEGER NOT NULL, usi TEXT NOT NULL, used_ms INTEGER NOT NULL, main_ms_after INTEGER NOT NULL, periods_after INTEGER NOT NULL'
    if variant in ('log','logtrig'):
        c.execute('CREATE TABLE move_log (seq INTEGER PRIMARY KEY, %s)'%cols)
    if variant=='logpk':
        c.execute('CREATE TABLE move_log (%s, PRIMARY KEY (game_id, ply)) WITHOUT ROWID'%cols)
    if variant in ('logtrig','logpk'):
        c.execute("""CREATE TRIGGER move_log_check BEFORE INSERT ON move_log
          WHEN NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id)
            OR EXISTS (SELECT 1 FROM moves WHERE game_id = NEW.game_id AND ply = NEW.ply)
          BEGIN SELECT RAISE(ABORT, 'no'); END""")
    ids=['%016x' % random.getrandbits(64) for _ in range(N)]
    c.execute('BEGIN'); c.executemany('INSERT INTO games VALUES (?,0)', [(i,) for i in ids]); c.execute('COMMIT')
    c.execute('BEGIN')
    c.executemany('INSERT INTO moves VALUES (?,?,?,?,?,?)', [(g,p,'7g7f',1000,600000,1) for g in ids for p in range(1,PRE+1)])
    c.execute('COMMIT'); c.execute('PRAGMA wal_checkpoint(TRUNCATE)')
    return c, ids
def run(variant):
    c, ids = setup(variant)
    table = 'moves' if variant=='direct' else 'move_log'
    colnames='game_id, ply, usi, used_ms, main_ms_after, periods_after'
    sql='INSERT INTO %s (%s) VALUES '%(table,colnames)+','.join(['(?,?,?,?,?,?)']*BATCH)
    ply={i:PRE for i in ids}
    order=[]
    for r in range(MEAS):
        o=ids[:]; random.shuffle(o); order+=o
    t=time.process_time(); w=time.time()
    since=0; sinceck=0
    for k in range(0,len(order),BATCH):
        args=[]
        for g in order[k:k+BATCH]:
            ply[g]+=1; args+=[g,ply[g],'7g7f',1000,600000,1]
        c.execute(sql,args)
        since+=BATCH; sinceck+=BATCH
        if table=='move_log' and since>=FLUSH:
            c.execute('BEGIN'); c.execute('INSERT INTO moves (%s) SELECT %s FROM move_log ORDER BY game_id, ply'%(colnames,colnames)); c.execute('DELETE FROM move_log'); c.execute('COMMIT'); since=0
        if sinceck>=N:
            c.execute('PRAGMA wal_checkpoint(PASSIVE)'); sinceck=0
    dt=time.process_time()-t
    return dt/len(order)*1e6
for v in sys.argv[1].split(','):
    print(v, FLUSH, '%.1f us/move'%run(v))
