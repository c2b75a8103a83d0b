#!/usr/bin/env python3
# cshogi 1.1.0's KIF and CSA readers over the same shared records as
# crates/record/benches/readers.rs (whole files in memory, decoded once as
# cshogi needs text): bytes per second and moves per second, median of 5.
import csv, time, statistics, cshogi.KIF, cshogi.CSA
import os
d = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../shared/data/records/')
rows = list(csv.DictReader(open(d + 'manifest.tsv', encoding='utf-8'), delimiter='\t'))
for fmt, parser in [('KIF', cshogi.KIF.Parser.parse_str), ('CSA', cshogi.CSA.Parser.parse_str)]:
    files = []
    for r in rows:
        if r['format'] != fmt:
            continue
        b = open(d + r['file'], 'rb').read()
        for enc in ('utf-8-sig', 'cp932'):
            try:
                files.append((len(b), b.decode(enc))); break
            except UnicodeDecodeError:
                pass
    total = sum(n for n, _ in files)
    times, moves, ok = [], 0, 0
    for _ in range(5):
        t = time.perf_counter(); moves = ok = 0
        for _ in range(20):
            for n, text in files:
                try:
                    got = parser(text)
                    for p in (got if isinstance(got, list) else [got]):
                        moves += len(p.moves); ok += 1
                except Exception:
                    pass
        times.append((time.perf_counter() - t) / 20)
    m = statistics.median(times)
    print(f"cshogi {fmt}: {len(files)} files, {total} bytes, {ok//20} read, {m*1e3:.2f} ms, {total/m/1e6:.1f} MB/s, {moves/20/m/1e6:.2f} M moves/s")
